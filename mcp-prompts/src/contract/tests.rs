// Call sites read better passing `json!` values by value.
#![allow(clippy::needless_pass_by_value)]

use super::*;
use serde_json::{Value, json};

/// A catalog of one prompt `p` with these arguments, and these skills.
fn catalog(arguments: Value, skills: Value) -> Contract {
    let document = json!({
        "catalog": 1,
        "prompts": [{"name": "p", "arguments": arguments, "tags": [], "as_tool": true}],
        "skills": skills,
    });
    Contract::from_json(&document.to_string()).unwrap()
}

fn one(arguments: Value) -> Contract {
    catalog(arguments, json!([]))
}

/// Each change's kind, in report order.
fn kinds(old: &Contract, new: &Contract) -> Vec<&'static str> {
    Changes::between(old, new)
        .iter()
        .map(|c| c.kind().as_str())
        .collect()
}

#[test]
fn a_catalog_compared_with_itself_has_no_change() {
    let a = one(json!([{"name": "x", "required": true, "choices": ["a", "b"], "type": "string"}]));
    assert!(Changes::between(&a, &a).is_empty());
    // Written and read back: the same document, byte for byte.
    assert_eq!(
        Contract::from_json(&a.to_json()).unwrap().to_json(),
        a.to_json()
    );
}

#[test]
fn arguments_removed_added_and_made_required_or_optional() {
    let old = one(json!([
        {"name": "gone", "required": false},
        {"name": "now_required", "required": false},
        {"name": "now_optional", "required": true},
    ]));
    let new = one(json!([
        {"name": "now_required", "required": true},
        {"name": "now_optional", "required": false},
        {"name": "needed", "required": true},
        {"name": "extra", "required": false},
    ]));
    assert_eq!(
        kinds(&old, &new),
        [
            "argument-removed",
            "argument-now-required",
            "argument-added",
            "argument-now-optional",
            "argument-added-optional",
        ]
    );
    let changes = Changes::between(&old, &new);
    let first = &changes.breaking()[0];
    assert_eq!(
        (first.prompt(), first.argument()),
        (Some("p"), Some("gone"))
    );
}

#[test]
fn choices_removed_added_gained_and_dropped() {
    let old = one(json!([
        {"name": "tone", "required": true, "choices": ["formal", "casual"]},
        {"name": "free", "required": true},
        {"name": "listed", "required": true, "type": "string", "choices": ["a"]},
    ]));
    let new = one(json!([
        {"name": "tone", "required": true, "choices": ["casual", "warm"]},
        {"name": "free", "required": true, "choices": ["x"]},
        {"name": "listed", "required": true, "type": "string"},
    ]));
    let changes = Changes::between(&old, &new);
    let breaking: Vec<_> = changes
        .breaking()
        .iter()
        .map(|c| (c.kind().as_str(), c.choice()))
        .collect();
    assert_eq!(
        breaking,
        [
            ("choice-removed", Some("formal")),
            ("argument-type-changed", None)
        ]
    );
    let compatible: Vec<_> = changes
        .compatible()
        .iter()
        .map(|c| (c.kind().as_str(), c.choice()))
        .collect();
    assert_eq!(
        compatible,
        [
            ("choice-added", Some("warm")),
            ("argument-type-widened", None)
        ]
    );
}

#[test]
fn types_narrow_or_widen() {
    let typed = |kind: &str| json!({"name": "n", "required": true, "type": kind});
    let change = |from: &str, to: &str| kinds(&one(json!([typed(from)])), &one(json!([typed(to)])));
    assert_eq!(change("string", "integer"), ["argument-type-changed"]);
    assert_eq!(change("integer", "string"), ["argument-type-widened"]);
    assert_eq!(change("integer", "number"), ["argument-type-widened"]);
    assert_eq!(change("number", "integer"), ["argument-type-changed"]);
    assert_eq!(change("date", "date-time"), ["argument-type-changed"]);
    assert_eq!(change("json", "string"), ["argument-type-widened"]);
    // A type the server cannot name may refuse anything.
    let unknown = one(json!([{"name": "n", "required": true}]));
    assert_eq!(
        kinds(&one(json!([typed("integer")])), &unknown),
        ["argument-type-changed"]
    );
}

#[test]
fn ranges_narrow_or_widen() {
    let ranged = |range: Value| {
        one(json!([{"name": "n", "required": true, "type": "integer", "range": range}]))
    };
    let change = |from: Value, to: Value| kinds(&ranged(from), &ranged(to));
    assert_eq!(
        change(json!({"min": 1, "max": 10}), json!({"min": 1, "max": 5})),
        ["argument-type-changed"]
    );
    assert_eq!(
        change(json!({"min": 1, "max": 10}), json!({"min": 0, "max": 10})),
        ["argument-type-widened"]
    );
    assert_eq!(
        change(json!({"max": 10}), json!({"min": 0, "max": 10})),
        ["argument-type-changed"]
    );
    assert_eq!(
        change(json!({"min": 0, "max": 10}), json!({"max": 10})),
        ["argument-type-widened"]
    );
    // Narrower at one end and wider at the other still refuses a value.
    assert_eq!(
        change(json!({"min": 0, "max": 10}), json!({"min": 5, "max": 20})),
        ["argument-type-changed"]
    );
    assert!(change(json!({"min": 1}), json!({"min": 1.0})).is_empty());
}

#[test]
fn shown_text_defaults_and_tags_are_information() {
    let old = Contract::from_json(
        &json!({"catalog": 1, "prompts": [{
        "name": "p", "title": "P", "description": "old", "tags": ["a"],
        "arguments": [{"name": "x", "required": false, "default": "1", "description": "d"}]
    }], "skills": []})
        .to_string(),
    )
    .unwrap();
    let new = Contract::from_json(
        &json!({"catalog": 1, "prompts": [{
        "name": "p", "title": "Q", "description": "new", "tags": ["b"],
        "arguments": [{"name": "x", "required": false, "default": "2", "description": "e"}]
    }], "skills": []})
        .to_string(),
    )
    .unwrap();
    let changes = Changes::between(&old, &new);
    assert!(changes.breaking().is_empty() && changes.compatible().is_empty());
    let info: Vec<_> = changes
        .info()
        .iter()
        .map(|c| (c.kind().as_str(), c.argument()))
        .collect();
    assert_eq!(
        info,
        [
            ("title-changed", None),
            ("description-changed", None),
            ("tags-changed", None),
            ("default-changed", Some("x")),
            ("description-changed", Some("x")),
        ]
    );
}

#[test]
fn a_renamed_prompt_is_a_removal_and_an_addition_said_so() {
    let named = |name: &str| {
        let document = json!({"catalog": 1, "prompts": [{"name": name, "arguments": [{"name": "x", "required": true}]}], "skills": []});
        Contract::from_json(&document.to_string()).unwrap()
    };
    let changes = Changes::between(&named("old_name"), &named("new_name"));
    assert_eq!(changes.breaking()[0].kind(), ChangeKind::PromptRemoved);
    assert!(
        changes.breaking()[0]
            .message()
            .contains("`new_name` was added with the same arguments"),
        "{changes}"
    );
    assert_eq!(changes.compatible()[0].kind(), ChangeKind::PromptAdded);
}

#[test]
fn skills_removed_added_and_changed_by_digest() {
    let file = |path: &str, digest: &str| json!({"path": path, "size": 1, "digest": digest});
    let skill = |uri: &str, files: Value| json!({"uri": uri, "name": "s", "description": "d", "files": files});
    let old = catalog(
        json!([]),
        json!([
            skill(
                "skill://a",
                json!([file("SKILL.md", "sha256:1"), file("x.md", "sha256:2")])
            ),
            skill("skill://gone", json!([file("SKILL.md", "sha256:3")])),
        ]),
    );
    let new = catalog(
        json!([]),
        json!([
            skill(
                "skill://a",
                json!([file("SKILL.md", "sha256:9"), file("y.md", "sha256:2")])
            ),
            skill("skill://new", json!([file("SKILL.md", "sha256:4")])),
        ]),
    );
    let changes = Changes::between(&old, &new);
    let all: Vec<_> = changes
        .iter()
        .map(|c| (c.kind().as_str(), c.skill().unwrap_or_default()))
        .collect();
    assert_eq!(
        all,
        [
            ("skill-removed", "skill://gone"),
            ("skill-added", "skill://new"),
            ("skill-changed", "skill://a")
        ]
    );
    let said = changes.info()[0].message();
    assert!(
        said.contains("`SKILL.md` changed")
            && said.contains("`y.md` was added")
            && said.contains("`x.md` was removed"),
        "{said}"
    );
}

#[test]
fn a_document_of_another_shape_or_no_document_is_refused() {
    assert!(Contract::from_json(r#"{"catalog": 2, "prompts": [], "skills": []}"#).is_err());
    assert!(Contract::from_json("[]").is_err());
}

#[test]
fn the_json_report_has_the_three_classes() {
    let old = one(json!([{"name": "x", "required": false}]));
    let new = one(json!([{"name": "x", "required": true}]));
    let report = serde_json::to_value(Changes::between(&old, &new)).unwrap();
    assert_eq!(
        report,
        json!({"breaking": [{"kind": "argument-now-required", "prompt": "p", "argument": "x",
            "message": "argument `x` of `p` is now required"}], "compatible": [], "info": []})
    );
}

#[test]
fn choices_are_compared_as_the_server_reads_them_whatever_their_case() {
    let listed = |choices: Value| one(json!([{"name": "c", "required": true, "choices": choices}]));
    assert!(
        Changes::between(
            &listed(json!(["Red", "Blue"])),
            &listed(json!(["red", "BLUE"]))
        )
        .is_empty()
    );
    assert_eq!(
        kinds(&listed(json!(["Red"])), &listed(json!(["green"]))),
        ["choice-removed", "choice-added"]
    );
}

#[test]
fn sixty_four_bit_bounds_are_compared_exactly() {
    let ranged = |min: Value, max: Value| {
        one(
            json!([{"name": "n", "required": true, "type": "integer", "range": {"min": min, "max": max}}]),
        )
    };
    // u64 to i64: the greatest values no longer fit.
    let (u64_range, i64_range) = (
        ranged(json!(0), json!(u64::MAX)),
        ranged(json!(i64::MIN), json!(i64::MAX)),
    );
    assert_eq!(kinds(&u64_range, &i64_range), ["argument-type-changed"]);
    // Past 2^53 floating point would see no change.
    let big = 1_u64 << 53;
    assert_eq!(
        kinds(
            &ranged(json!(0), json!(big + 1)),
            &ranged(json!(0), json!(big))
        ),
        ["argument-type-changed"]
    );
}

#[test]
fn choices_dropped_for_another_type_are_that_type_s_change_only() {
    let old =
        one(json!([{"name": "b", "required": true, "type": "string", "choices": ["yes", "no"]}]));
    let new = one(json!([{"name": "b", "required": true, "type": "boolean"}]));
    assert_eq!(kinds(&old, &new), ["argument-type-changed"]);
}

#[test]
fn a_name_listed_twice_is_refused() {
    let twice = json!({"catalog": 1, "prompts": [{"name": "p"}, {"name": "p"}], "skills": []});
    assert!(
        Contract::from_json(&twice.to_string())
            .unwrap_err()
            .to_string()
            .contains("`p` is listed twice")
    );
    let arguments = json!({"catalog": 1, "prompts": [{"name": "p", "arguments": [
        {"name": "x", "required": false}, {"name": "x", "required": true}]}], "skills": []});
    assert!(Contract::from_json(&arguments.to_string()).is_err());
}

#[test]
fn a_name_with_a_line_break_stays_on_its_line() {
    let named = |title: &str| {
        let document = json!({"catalog": 1, "prompts": [{"name": "p\n::error::forged", "title": title}], "skills": []});
        Contract::from_json(&document.to_string()).unwrap()
    };
    let report = Changes::between(&named("a"), &named("b\n::error::forged")).to_string();
    assert_eq!(report.lines().count(), 1, "{report}");
    assert!(report.contains("\\n::error::forged"), "{report}");
}

#[test]
fn past_the_bound_changes_are_counted_not_kept() {
    let many: Vec<String> = (0..MAX_CHANGES + 2).map(|i| format!("c{i}")).collect();
    let old = one(json!([{"name": "c", "required": true, "choices": many}]));
    let new = one(json!([{"name": "c", "required": true, "choices": ["c0"]}]));
    let changes = Changes::between(&old, &new);
    assert_eq!(changes.breaking().len(), MAX_CHANGES);
    assert_eq!(changes.omitted(), 1);
    assert!(changes.is_breaking());
    assert!(
        changes
            .to_string()
            .ends_with("... and 1 more changes, past the 100000 reported\n")
    );
}

#[test]
fn a_type_written_another_way_is_a_changed_type() {
    let written = |format: &str| one(json!([{"name": "at", "required": true, "format": format}]));
    assert_eq!(
        kinds(&written("YYYY-MM-DDTHH:MM:SS"), &written("RFC 9557")),
        ["argument-type-changed"]
    );
    assert!(Changes::between(&written("RFC 9557"), &written("RFC 9557")).is_empty());
}

#[test]
fn changes_past_the_bound_are_counted_by_class_in_json() {
    let many: Vec<String> = (0..MAX_CHANGES + 3).map(|i| format!("c{i}")).collect();
    let old = one(json!([{"name": "c", "required": true, "choices": many}]));
    let new = one(json!([{"name": "c", "required": true, "choices": ["c0"]}]));
    let report = serde_json::to_value(Changes::between(&old, &new)).unwrap();
    assert_eq!(
        report["omitted"],
        json!({"breaking": 2, "compatible": 0, "info": 0})
    );
}
