//! The skill and resource methods' answers, as a caller sees them.

use std::sync::Arc;

use serde::Serialize;
use serde_json::{Value, json};

use super::set::tests::sample;
use super::set::{Skill, SkillSet};
use super::view::RESOURCE_NOT_FOUND;
use super::{SCHEME, SkillFile};
use crate::caller::{Access, Caller};
use crate::error::Error;
use crate::protocol::ProtocolVersion;
use crate::protocol::answer::Cached;
use crate::protocol::cursor;

fn json(answer: &impl Serialize) -> Value {
    serde_json::to_value(answer).unwrap()
}

#[test]
fn an_entry_lists_every_file_under_its_folder() {
    let set = Arc::new(sample());
    let got = json(
        &set.view(&Access::Local)
            .get("skill://acme/billing/refunds/SKILL.md")
            .unwrap(),
    );
    let file = set
        .file_at("skill://acme/billing/refunds/SKILL.md")
        .unwrap();
    assert_eq!(
        got,
        json!({"skill": {
            "uri": "skill://acme/billing/refunds/SKILL.md",
            "frontmatter": {"name": "refunds", "description": "The refunds skill"},
            "resources": [{"uri": "skill://acme/billing/refunds/SKILL.md",
                           "digest": file.digest(), "size": file.size()}],
        }})
    );
    let error = set
        .view(&Access::Local)
        .get("skill://acme/billing/refunds")
        .err()
        .unwrap();
    assert_eq!(error.code(), Error::INVALID_PARAMS);
}

#[test]
fn a_listing_page_stops_at_its_size_after_one_entry() {
    // Three skills of 300 files with long paths: each entry about
    // 640 KB, past a page's bytes on its own.
    let (mut skills, mut files) = (Vec::new(), Vec::new());
    for name in ["a", "b", "c"] {
        let front_matter = serde_json::json!({"name": name, "description": "d"});
        let serde_json::Value::Object(front_matter) = front_matter else {
            unreachable!()
        };
        skills.push(Skill::new(name, front_matter, name, "d"));
        files.push(SkillFile::new(
            format!("{name}/SKILL.md"),
            b"x".to_vec(),
            "text/markdown",
        ));
        let long = "p".repeat(2_000);
        for i in 0..300 {
            let path = format!("{name}/{long}{i}.txt");
            files.push(SkillFile::new(path, b"x".to_vec(), "text/plain"));
        }
    }
    let set = Arc::new(SkillSet::new(skills, files, 0));
    let view = set.view(&Access::Local);
    let (mut cursor, mut seen) = (None, Vec::new());
    loop {
        let page = view.list(cursor.as_deref()).unwrap();
        let written = json(&page);
        let entries = written["skills"].as_array().unwrap();
        assert_eq!(entries.len(), 1, "one entry a page");
        assert!(serde_json::to_string(&written).unwrap().len() < 1 << 20);
        seen.push(
            entries[0]["frontmatter"]["name"]
                .as_str()
                .unwrap()
                .to_owned(),
        );
        match written["nextCursor"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => break,
        }
    }
    assert_eq!(seen, ["a", "b", "c"]);
}

#[test]
fn pages_hold_whole_entries_and_cursors_are_checked() {
    let set = Arc::new(SkillSet::new(
        sample()
            .skills()
            .iter()
            .map(|s| {
                Skill::new(
                    s.path(),
                    s.front_matter().clone(),
                    s.name(),
                    s.description(),
                )
            })
            .collect(),
        Vec::new(),
        1,
    ));
    let first = json(&set.view(&Access::Local).list(None).unwrap());
    assert_eq!(first["skills"].as_array().unwrap().len(), 1);
    let next = first["nextCursor"].as_str().unwrap().to_owned();
    let second = json(&set.view(&Access::Local).list(Some(&next)).unwrap());
    assert_eq!(second["skills"][0]["frontmatter"]["name"], "refunds");
    assert!(second.get("nextCursor").is_none());
    // One page: no cursor names a second, nor an overflowing one.
    let one_page = Arc::new(sample());
    let view = one_page.view(&Access::Local);
    assert!(view.list(Some(&cursor::encode(2))).is_err());
    assert!(view.list(Some(&cursor::encode(usize::MAX))).is_err());
    assert!(set.view(&Access::Local).list(Some("bogus")).is_err());
    assert!(
        set.view(&Access::Local)
            .list(Some(&cursor::encode(2)))
            .is_err()
    );
}

#[test]
fn an_unknown_resource_has_its_revisions_code() {
    let set = Arc::new(sample());
    let old = set
        .view(&Access::Local)
        .read("skill://nope", ProtocolVersion::V2025_11_25)
        .err()
        .unwrap();
    assert_eq!(old.code(), RESOURCE_NOT_FOUND);
    let new = set
        .view(&Access::Local)
        .read("skill://nope", ProtocolVersion::MODERN)
        .err()
        .unwrap();
    assert_eq!(new.code(), Error::INVALID_PARAMS);
    let text = json(
        &set.view(&Access::Local)
            .read(
                "skill://acme/billing/templates/invoice.md",
                ProtocolVersion::MODERN,
            )
            .unwrap(),
    );
    assert_eq!(text["contents"][0]["text"], "Invoice");
}

#[test]
fn a_skill_md_is_listed_with_its_skills_name_and_description() {
    let set = Arc::new(sample());
    let listed = json(&set.view(&Access::Local).resources(None).unwrap());
    assert_eq!(listed["resources"][0]["name"], "billing");
    assert_eq!(listed["resources"][0]["description"], "The billing skill");
    let dir = json(
        &set.view(&Access::Local)
            .read_directory("skill://acme/billing", None)
            .unwrap(),
    );
    assert_eq!(
        dir["resources"][2],
        json!({"uri": "skill://acme/billing/refunds", "name": "refunds", "mimeType": "inode/directory"})
    );
}

#[test]
fn a_skill_limited_to_scopes_is_hidden_with_what_it_holds() {
    let base = sample();
    let skills = base
        .skills()
        .iter()
        .map(|s| {
            let skill = Skill::new(
                s.path(),
                s.front_matter().clone(),
                s.name(),
                s.description(),
            );
            if s.name() == "billing" {
                skill.limited_to(vec!["finance".into()])
            } else {
                skill
            }
        })
        .collect();
    let files = base
        .files()
        .iter()
        .map(|f| SkillFile::new(f.path(), f.bytes().to_vec(), f.mime()))
        .collect();
    let set = Arc::new(SkillSet::new(skills, files, 0));
    let stranger = Access::Remote(Some(std::sync::Arc::new(Caller::new("ann"))));
    let view = set.view(&stranger);
    // The billing skill, the refunds skill inside it, and every file.
    assert_eq!(json(&view.list(None).unwrap()), json!({"skills": []}));
    assert_eq!(
        json(&view.resources(None).unwrap()),
        json!({"resources": []})
    );
    for uri in [
        "skill://acme/billing/SKILL.md",
        "skill://acme/billing/refunds/SKILL.md",
    ] {
        assert!(view.get(uri).is_err(), "{uri}");
        assert!(view.read(uri, ProtocolVersion::MODERN).is_err(), "{uri}");
    }
    assert!(view.read_directory("skill://acme/billing", None).is_err());
    assert_eq!(view.cached, Cached::PerCaller);
    let finance = Caller::new("bob").with_scopes(["finance"]);
    let view = set.view(&Access::Remote(Some(std::sync::Arc::new(finance))));
    assert_eq!(
        json(&view.list(None).unwrap())["skills"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    assert_eq!(set.view(&Access::Local).skills().len(), 2);
    assert!(
        set.view(&Access::Remote(None))
            .get("skill://acme/billing/SKILL.md")
            .is_err()
    );
}

#[test]
fn a_generated_skill_answers_from_what_it_makes_now() {
    use crate::protocol::answer::Answer as _;
    use crate::skills::SkillContent;

    let matter = |name: &str| {
        let json = serde_json::json!({"name": name, "description": "d"});
        json.as_object().unwrap().clone()
    };
    let made =
        Skill::new("gen", matter("gen"), "gen", "d").generated_by(std::sync::Arc::new(|| {
            SkillContent::new("Now").file("data/a.txt", "text/plain", "a")
        }));
    // A skill nested in it, from a folder: its nearest skill is its own.
    let inner = Skill::new("gen/inner", matter("inner"), "inner", "d");
    let file = SkillFile::new("gen/inner/SKILL.md", b"inner".to_vec(), "text/markdown");
    let set = Arc::new(SkillSet::new(vec![made, inner], vec![file], 0));
    let view = set.view(&Access::Local);
    let listed = json(&view.get("skill://gen/SKILL.md").unwrap());
    assert_eq!(listed["skill"]["resources"], "dynamic");
    let read = view
        .read("skill://gen/data/a.txt", ProtocolVersion::LATEST)
        .unwrap();
    assert_eq!(read.file().bytes(), b"a");
    assert!(matches!(read.cached(), Cached::No));
    let view = set.view(&Access::Local);
    let inner = view
        .read("skill://gen/inner/SKILL.md", ProtocolVersion::LATEST)
        .unwrap();
    assert_eq!(inner.file().bytes(), b"inner");
    // Listed for clients that know no skills: its SKILL.md, not the
    // files it makes, which vary.
    let view = set.view(&Access::Local);
    let uris: Vec<String> = json(&view.resources(None).unwrap())["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["uri"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(uris, ["skill://gen/SKILL.md", "skill://gen/inner/SKILL.md"]);
    let view = set.view(&Access::Local);
    let children = json(&view.read_directory("skill://gen/data", None).unwrap());
    assert_eq!(children["resources"][0]["uri"], "skill://gen/data/a.txt");
}

#[test]
fn a_reads_size_bound_holds_its_body() {
    use crate::protocol::answer::Answer as _;

    let text = "line\n\"quoted\"\t\u{1}\u{e9}".repeat(100);
    let files = vec![
        SkillFile::new("a/SKILL.md", b"---\nname: a\n---\n".to_vec(), "text/x\"y"),
        SkillFile::new("a/t\"q.txt", text.into_bytes(), "text/plain"),
        SkillFile::new("a/b.bin", vec![0xff; 1000], "application/octet-stream"),
    ];
    let set = Arc::new(SkillSet::new(Vec::new(), files, 0));
    let view = set.view(&Access::Local);
    for file in set.files() {
        let uri = format!("{SCHEME}{}", file.path());
        let read = view.read(&uri, ProtocolVersion::LATEST).unwrap();
        let written = serde_json::to_string(&read.body(ProtocolVersion::LATEST)).unwrap();
        let bound = read.size_bound().unwrap();
        assert!(bound >= written.len(), "{uri}: {bound} < {}", written.len());
        if file.text().is_none() {
            // Base64's length is known exactly.
            assert!(bound < written.len() + 200, "{uri}: {bound} far over");
        }
    }
}
