//! A served prompt folder changed as people and platforms change one,
//! with no reload asked for: each change is served once it settles. A
//! Kubernetes `ConfigMap`'s update (only the hidden `..data` link swapped),
//! a subfolder removed and made again or swapped by renames (its new
//! files still followed after), a skill's folder that stops being one;
//! and what the watch leaves alone: links, hidden and too-deep folders.
// Call sites read better passing `json!` values by value.
#![allow(clippy::needless_pass_by_value)]

mod served;

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::json;
use served::{Served, folder};

/// Waits until the names served are `expected`.
fn serves(served: &mut Served, expected: &[&str]) {
    let start = Instant::now();
    loop {
        let names = served.names();
        if names == expected {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "serving {names:?}, not {expected:?}: {}",
            served.said()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn write(dir: &Path, file: &str, text: &str) {
    let path = dir.join(file);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[cfg(unix)]
#[test]
fn a_configmap_update_swapping_only_hidden_links_is_served() {
    use std::os::unix::fs::symlink;
    let dir = folder("configmap");
    // As the kubelet lays a ConfigMap out: each file a link through
    // `..data`, itself a link to a hidden folder of the version.
    write(&dir, "..2026_12_03_a/review.md", "Version one.");
    symlink("..2026_12_03_a", dir.join("..data")).unwrap();
    symlink("..data/review.md", dir.join("review.md")).unwrap();
    let mut served = Served::serve(&dir, &[]);
    let text = |served: &mut Served| {
        let got = served.get("review", json!({}));
        got["result"]["messages"][0]["content"]["text"].clone()
    };
    assert_eq!(text(&mut served), "Version one.");
    // The update: a new version's folder, a new link renamed over `..data`,
    // the old version removed. No name the walk reads changes.
    write(&dir, "..2026_12_03_b/review.md", "Version two.");
    symlink("..2026_12_03_b", dir.join("..data_tmp")).unwrap();
    std::fs::rename(dir.join("..data_tmp"), dir.join("..data")).unwrap();
    std::fs::remove_dir_all(dir.join("..2026_12_03_a")).unwrap();
    let start = Instant::now();
    while text(&mut served) != "Version two." {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{}",
            served.said()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    served.answers();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_subfolder_made_anew_is_followed_as_the_first_was() {
    let dir = folder("remade");
    write(&dir, "team/old.md", "Old.");
    let mut served = Served::serve(&dir, &[]);
    serves(&mut served, &["ok", "team.old"]);
    // Removed and made again: another folder at the same path.
    std::fs::remove_dir_all(dir.join("team")).unwrap();
    std::fs::create_dir(dir.join("team")).unwrap();
    write(&dir, "team/new.md", "New.");
    serves(&mut served, &["ok", "team.new"]);
    // A file added to it later is served too: it is watched.
    write(&dir, "team/later.md", "Later.");
    serves(&mut served, &["ok", "team.later", "team.new"]);
    // Swapped by renames, as deploy scripts do.
    write(&dir, "team.next/swapped.md", "Swapped.");
    std::fs::rename(dir.join("team"), dir.join("team.last")).unwrap();
    std::fs::rename(dir.join("team.next"), dir.join("team")).unwrap();
    std::fs::remove_dir_all(dir.join("team.last")).unwrap();
    serves(&mut served, &["ok", "team.swapped"]);
    write(&dir, "team/after.md", "After.");
    serves(&mut served, &["ok", "team.after", "team.swapped"]);
    served.answers();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_folder_that_stops_being_a_skill_is_read() {
    let dir = folder("skill");
    write(&dir, "helper/SKILL.md", "---\nname: helper\n---\nA skill.");
    write(&dir, "helper/notes.md", "Notes.");
    let mut served = Served::serve(&dir, &[]);
    serves(&mut served, &["ok"]);
    // Other files of a skill change nothing the walk reads.
    let reads = |served: &Served| served.said().matches("reading the prompt folder").count();
    let before = reads(&served);
    write(&dir, "helper/more.md", "More.");
    std::thread::sleep(Duration::from_millis(600));
    assert_eq!(reads(&served), before, "{}", served.said());
    std::fs::remove_file(dir.join("helper/SKILL.md")).unwrap();
    serves(&mut served, &["helper.more", "helper.notes", "ok"]);
    served.answers();
    let _ = std::fs::remove_dir_all(&dir);
}

/// How many inotify watches process `pid` holds (Linux).
#[cfg(target_os = "linux")]
fn inotify_watches(pid: u32) -> usize {
    let mut watches = 0;
    for fd in std::fs::read_dir(format!("/proc/{pid}/fdinfo")).unwrap() {
        let info = std::fs::read_to_string(fd.unwrap().path()).unwrap_or_default();
        watches += info
            .lines()
            .filter(|l| l.starts_with("inotify wd:"))
            .count();
    }
    watches
}

#[cfg(target_os = "linux")]
#[test]
fn links_hidden_and_deep_folders_are_neither_read_nor_watched() {
    let dir = folder("rule");
    std::os::unix::fs::symlink("/usr", dir.join("usr")).unwrap();
    std::os::unix::fs::symlink("/proc", dir.join("proc")).unwrap();
    for sub in ["git", "a/b/c/d/e/f", ".cache/objects/ab", "skill/scripts"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    std::fs::write(dir.join("skill/SKILL.md"), "---\nname: s\n---\nA skill.").unwrap();
    std::fs::write(dir.join("git/commit.md"), "Commit.").unwrap();
    let mut served = Served::serve(&dir, &[]);
    // For the prompt files: the folder, git, a, a/b, a/b/c, a/b/c/d: one
    // watch each; and the skill's folder, for its SKILL.md alone. For the
    // skills (the folder holds one, if a broken one), whose search goes six
    // folders deep: the folder, git, a through a/b/c/d/e/f, skill and
    // skill/scripts. Neither follows the links nor enters `.cache`.
    assert_eq!(
        inotify_watches(served.child.id()),
        7 + 10,
        "{}",
        served.said()
    );
    assert_eq!(served.names(), ["git.commit", "ok"]);
    // Writes in a hidden folder are no change: the folder is not read
    // again. (Not `.git`, which makes the folder a repository's root.)
    let reads = |served: &Served| served.said().matches("reading the prompt folder").count();
    let before = reads(&served);
    for i in 0..20 {
        std::fs::write(dir.join(format!(".cache/objects/ab/{i}")), "x").unwrap();
        std::fs::write(dir.join(".cache/index"), format!("{i}")).unwrap();
    }
    std::thread::sleep(Duration::from_millis(600));
    assert_eq!(reads(&served), before, "{}", served.said());
    // A write in a folder read is.
    std::fs::write(dir.join("git/commit.md"), "Commit now.").unwrap();
    let start = Instant::now();
    while reads(&served) == before {
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{}",
            served.said()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    served.answers();
    let _ = std::fs::remove_dir_all(&dir);
}
