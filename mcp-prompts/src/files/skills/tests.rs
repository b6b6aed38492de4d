use std::fs;

use super::*;
use crate::files::tests::scratch;

fn skill(dir: &Path, name: &str) {
    fs::create_dir_all(dir).unwrap();
    fs::write(
        dir.join(SKILL_MD),
        format!("---\nname: {name}\ndescription: The {name} skill\n---\nDo it.\n"),
    )
    .unwrap();
}

#[test]
fn skills_are_read_whole_or_not_at_all() {
    let root = scratch("skills-load");
    skill(&root.join("acme/billing"), "billing");
    fs::write(root.join("acme/billing/notes.txt"), "crlf\r\nnon-ascii é\n").unwrap();
    fs::write(
        root.join("acme/billing/logo.png"),
        [0x89, b'P', b'N', b'G', 0xff],
    )
    .unwrap();
    skill(&root.join("acme/billing/refunds"), "refunds");
    skill(&root.join("wrong"), "other");
    skill(&root.join("leaky"), "leaky");
    fs::write(root.join("secret.txt"), "outside").unwrap();
    std::os::unix::fs::symlink(root.join("secret.txt"), root.join("leaky/secret.txt")).unwrap();
    skill(&root.join(".hidden/x"), "x");
    // A name its URI would have to escape.
    skill(&root.join("hashed"), "hashed");
    fs::write(root.join("hashed/notes#1.txt"), "x").unwrap();
    let loaded = load(&[root.clone().into()], 0, &[]).unwrap();
    let paths: Vec<&str> = loaded.set.skills().iter().map(Skill::path).collect();
    assert_eq!(paths, ["acme/billing", "acme/billing/refunds"]);
    assert_eq!(loaded.problems.len(), 3, "{:?}", loaded.problems);
    assert!(
        loaded.problems[0].contains("`notes#1.txt` has a `%`"),
        "{:?}",
        loaded.problems
    );
    assert!(
        loaded.problems[1].contains("leaky/secret.txt: not served"),
        "{:?}",
        loaded.problems
    );
    assert!(
        loaded.problems[2].contains("wrong/SKILL.md:2:"),
        "{:?}",
        loaded.problems
    );
    let files: Vec<&str> = loaded.set.files().iter().map(SkillFile::path).collect();
    assert_eq!(
        files,
        [
            "acme/billing/SKILL.md",
            "acme/billing/logo.png",
            "acme/billing/notes.txt",
            "acme/billing/refunds/SKILL.md",
        ]
    );
    let png = &loaded.set.files()[1];
    assert_eq!(
        (png.mime(), png.bytes()),
        ("image/png", &[0x89, b'P', b'N', b'G', 0xff][..])
    );
    assert_eq!(loaded.set.files()[0].mime(), "text/markdown");
    let _ = fs::remove_dir_all(&root);
}

#[test]
fn a_skill_that_looks_like_another_is_refused_whichever_comes_first() {
    let root = scratch("skills-look-alike");
    // Latin `ɡ` (U+0261) for `g`, after the ASCII one in path order;
    // Cyrillic `сосо` before Latin `coco`.
    for name in [
        "git",
        "\u{261}it",
        "coco",
        "\u{441}\u{43e}\u{441}\u{43e}",
        "burn",
        "bum",
        "game",
        "\u{261}ame",
    ] {
        skill(&root.join(name), name);
    }
    let loaded = load(&[root.clone().into()], 0, &[]).unwrap();
    let served: Vec<&str> = loaded.set.skills().iter().map(Skill::path).collect();
    // Two ASCII names are told apart as they are written.
    assert_eq!(
        served,
        ["bum", "burn", "coco", "game", "git"],
        "{:?}",
        loaded.problems
    );
    let problems = loaded.problems.join("\n");
    assert!(problems.contains("looks like `git`"), "{problems}");
    // `m` has a skeleton of its own (`rn`): still found.
    assert!(problems.contains("looks like `game`"), "{problems}");
    assert!(problems.contains("looks like `coco`"), "{problems}");
    assert_eq!(loaded.problems.len(), 3, "{problems}");
    // The look-alike found first, in an earlier root, keeps its path.
    let (first, second) = (scratch("skills-look-first"), scratch("skills-look-second"));
    skill(&first.join("\u{261}it"), "\u{261}it");
    skill(&second.join("git"), "git");
    let loaded = load(&[first.clone().into(), second.clone().into()], 0, &[]).unwrap();
    let served: Vec<&str> = loaded.set.skills().iter().map(Skill::path).collect();
    assert_eq!(served, ["\u{261}it"], "{:?}", loaded.problems);
    assert!(
        loaded.problems[0].contains("`git` looks like"),
        "{:?}",
        loaded.problems
    );
    for dir in [&root, &first, &second] {
        let _ = fs::remove_dir_all(dir);
    }
}

#[test]
fn a_skill_over_the_limits_is_refused_and_two_roots_may_not_share_a_path() {
    let root = scratch("skills-limits");
    skill(&root.join("a/many"), "many");
    for i in 0..MAX_FILES {
        fs::write(root.join(format!("a/many/{i}.txt")), "x").unwrap();
    }
    // Folders are bounded too, empty or holding only hidden files:
    // each is read at every reload and watched.
    skill(&root.join("a/hollow"), "hollow");
    for i in 0..=MAX_FILES {
        fs::create_dir_all(root.join(format!("a/hollow/{i}"))).unwrap();
        fs::write(root.join(format!("a/hollow/{i}/.keep")), "").unwrap();
    }
    skill(&root.join("a/big"), "big");
    fs::write(root.join("a/big/one.bin"), vec![0u8; 9 * 1024 * 1024]).unwrap();
    fs::write(root.join("a/big/two.bin"), vec![0u8; 8 * 1024 * 1024]).unwrap();
    let other = scratch("skills-limits-other");
    skill(&other.join("a/big"), "big");
    let loaded = load(&[root.clone().into(), other.clone().into()], 0, &[]).unwrap();
    assert!(loaded.set.skills().is_empty());
    assert!(loaded.set.files().is_empty());
    let problems = loaded.problems.join("\n");
    assert!(problems.contains("more than 512 files"), "{problems}");
    assert!(
        problems.contains("a/hollow") && problems.contains("512 folders"),
        "{problems}"
    );
    assert!(problems.contains("more than 16 MiB"), "{problems}");
    assert!(problems.contains("is also"), "{problems}");
    let _ = fs::remove_dir_all(&root);
    let _ = fs::remove_dir_all(&other);
}

#[test]
fn all_skills_together_hold_a_bounded_number_of_bytes() {
    let root = scratch("skills-total");
    for name in ["one", "two", "three"] {
        skill(&root.join(name), name);
        fs::write(root.join(format!("{name}/data.txt")), vec![b'x'; 400]).unwrap();
    }
    // Each skill holds about 450 bytes: two fit in 1,000, not three.
    let loaded = load_within(&[root.clone().into()], 0, &[], 1000).unwrap();
    assert_eq!(loaded.set.skills().len(), 2, "{:?}", loaded.problems);
    assert_eq!(loaded.problems.len(), 1, "{:?}", loaded.problems);
    assert!(
        loaded.problems[0].contains("together"),
        "{:?}",
        loaded.problems
    );
    let _ = fs::remove_dir_all(&root);
}

#[test]
fn a_skill_folder_is_read_beneath_the_root_never_through_a_link() {
    let root = scratch("skills-beneath");
    let outside = scratch("skills-beneath-outside");
    skill(&outside.join("evil"), "evil");
    skill(&root.join("evil"), "evil");
    skill(&root.join("team/evil"), "evil");
    let dir = ServedDir::open(&root, ReadLimits::default()).unwrap();
    let found = dir.skill_folders(MAX_DEPTH, MAX_FOLDERS).unwrap();
    assert_eq!(found.skills, ["evil/", "team/evil/"]);
    // Swapped for links to a folder outside once the walk found them:
    // the folder itself, and one on the way to it.
    fs::rename(root.join("evil"), root.join(".evil")).unwrap();
    std::os::unix::fs::symlink(outside.join("evil"), root.join("evil")).unwrap();
    fs::rename(root.join("team"), root.join(".team")).unwrap();
    std::os::unix::fs::symlink(&outside, root.join("team")).unwrap();
    let (mut files, mut budget) = (BTreeMap::new(), MAX_TOTAL_BYTES);
    for folder in ["evil/", "team/evil/"] {
        let on_disk = root.join(folder);
        let path = folder.trim_end_matches('/');
        let at = Place {
            folder,
            on_disk: &on_disk,
            path,
        };
        let refused = read_skill(&dir, &at, &mut files, &mut Vec::new(), &mut budget)
            .err()
            .expect("not read through a link");
        assert!(refused.contains("not read"), "{refused}");
    }
    assert!(files.is_empty());
    let _ = fs::remove_dir_all(&root);
    let _ = fs::remove_dir_all(&outside);
}

#[test]
fn a_skill_refused_for_its_front_matter_is_read_no_further() {
    let root = scratch("skills-front-first");
    // Its other files are not read: the FIFO would be a problem of
    // its own, and comes first in name order.
    skill(&root.join("fifo"), "misnamed");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(root.join("fifo/a.fifo"))
            .status()
            .unwrap()
            .success()
    );
    // Nor the rest of its SKILL.md: a front matter that does not
    // close within its bound is refused from the file's start.
    fs::create_dir_all(root.join("endless")).unwrap();
    let mut endless = b"---\nname: endless\n".to_vec();
    endless.resize(usize::try_from(MAX_BYTES).unwrap() - 16, b'x');
    endless.extend_from_slice(b"\n---\n");
    fs::write(root.join("endless/SKILL.md"), endless).unwrap();
    let loaded = load(&[root.clone().into()], 0, &[]).unwrap();
    assert!(loaded.set.skills().is_empty());
    assert_eq!(loaded.problems.len(), 2, "{:?}", loaded.problems);
    assert!(
        loaded.problems[0]
            .contains("endless/SKILL.md: front matter: no closing `---` line in the first 68 KiB"),
        "{:?}",
        loaded.problems
    );
    assert!(
        loaded.problems[1].contains("fifo/SKILL.md:2: front matter: the name `misnamed` differs"),
        "{:?}",
        loaded.problems
    );
    let _ = fs::remove_dir_all(&root);
}

#[test]
fn a_root_that_is_a_skill_serves_its_nested_skills_below_its_name() {
    let root = scratch("skills-root-skill").join("pdf");
    skill(&root, "pdf");
    skill(&root.join("forms"), "forms");
    fs::write(root.join("forms/secret.txt"), "x").unwrap();
    let loaded = load(&[root.clone().into()], 0, &[]).unwrap();
    let paths: Vec<&str> = loaded.set.skills().iter().map(Skill::path).collect();
    assert_eq!(paths, ["pdf", "pdf/forms"], "{:?}", loaded.problems);
    let files: Vec<&str> = loaded.set.files().iter().map(SkillFile::path).collect();
    assert_eq!(
        files,
        ["pdf/SKILL.md", "pdf/forms/SKILL.md", "pdf/forms/secret.txt"]
    );
    let _ = fs::remove_dir_all(root.parent().unwrap());
}
