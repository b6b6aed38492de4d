use super::*;
use crate::protocol::request_meta::RequestMeta;

/// What `preference` finds among `have` (lower case, the default aside).
fn pick(preference: &str, have: &[&str]) -> Option<String> {
    let preference = Preference::parse(preference).expect("well formed");
    match preference.lookup(|tag| have.iter().find(|h| **h == tag).copied()) {
        Found::Matched(tag) => Some(tag.to_owned()),
        Found::Default => None,
    }
}

#[test]
fn lookup_follows_rfc_4647() {
    let have = ["fr", "de", "zh-hant"];
    assert_eq!(pick("fr-CH, en;q=0.5", &have).as_deref(), Some("fr"));
    assert_eq!(pick("de-AT", &have).as_deref(), Some("de"));
    assert_eq!(pick("ja", &have), None);
    assert_eq!(pick("fr;q=0, de", &have).as_deref(), Some("de"));
    assert_eq!(pick("*", &have), None);
    // Weights order the ranges, whatever order they came in.
    assert_eq!(pick("fr;q=0.4, de;q=0.8", &have).as_deref(), Some("de"));
    assert_eq!(pick("ja, *;q=0.9, fr;q=0.5", &have), None);
    // Equal weights keep the order sent.
    assert_eq!(pick("de, fr", &have).as_deref(), Some("de"));
    // A single-letter subtag left at the end goes with the one after it.
    assert_eq!(
        pick("zh-Hant-CN-x-private1", &have).as_deref(),
        Some("zh-hant")
    );
    // Case is not significant.
    assert_eq!(pick("FR-ch", &have).as_deref(), Some("fr"));
    // A refused tag is not reached by truncation either.
    assert_eq!(pick("fr-CH, fr;q=0", &have), None);
}

#[test]
fn malformed_preferences_are_absent() {
    for text in [
        "",
        " , ",
        "fr;q=2",
        "fr;q=0.1234",
        "fr;level=1",
        "fr, ;q=1",
        "fr_FR",
        "123",
        "toolongtag",
        "fr;q=",
        "é",
        &(b'a'..=b'z')
            .map(|c| format!("a{}", c as char))
            .collect::<Vec<_>>()
            .join(", "),
        &format!("fr-{}", "a".repeat(600)),
    ] {
        assert_eq!(Preference::parse(text), None, "{text:?}");
    }
}

#[test]
fn preferences_compare_as_parsed() {
    let a = Preference::parse("fr-CH,en;q=0.5").unwrap();
    let b = Preference::parse(" fr-ch , EN;Q=0.500").unwrap();
    assert_eq!(a, b);
    assert_ne!(a, Preference::parse("fr-CH, en;q=0.6").unwrap());
    // Sixteen ranges and one given again: within the bound.
    let sixteen: Vec<String> = (b'a'..b'q').map(|c| format!("a{}", c as char)).collect();
    assert!(Preference::parse(&format!("{}, aa", sixteen.join(", "))).is_some());
    // A range given twice is the first one.
    assert_eq!(
        Preference::parse("fr, fr").unwrap(),
        Preference::parse("fr").unwrap()
    );
    assert_eq!(
        Preference::parse("de, fr;q=0.5, de;q=0.1").unwrap(),
        Preference::parse("de, fr;q=0.5").unwrap()
    );
}

#[test]
fn candidates_are_what_lookup_tries() {
    let preference = Preference::parse("fr-CH, de;q=0.2, *;q=0.5, en;q=0").unwrap();
    let tried: Vec<&str> = preference.candidates().collect();
    assert_eq!(tried, ["fr-ch", "fr", "*", "de"]);
}

#[test]
fn the_meta_key_is_read_only_where_it_is() {
    let read = |meta: &str| {
        let meta: RequestMeta<'_> = serde_json::from_str(meta).unwrap();
        meta.preference().and_then(|text| Preference::parse(&text))
    };
    assert_eq!(
        read(r#"{"io.modelcontextprotocol/acceptLanguage":"fr"}"#),
        Preference::parse("fr")
    );
    assert_eq!(
        read(r#"{"io.modelcontextprotocol\/acceptLanguage":"de"}"#),
        Preference::parse("de")
    );
    assert_eq!(
        read(r#"{"io.modelcontextprotocol/acceptLanguage":"fr\u002dCH"}"#),
        Preference::parse("fr-CH")
    );
    // Malformed or of another type: absent.
    assert_eq!(
        read(r#"{"io.modelcontextprotocol/acceptLanguage":"fr;q=9"}"#),
        None
    );
    assert_eq!(
        read(r#"{"io.modelcontextprotocol/acceptLanguage":["fr"]}"#),
        None
    );
    assert_eq!(read(r#"{"progressToken":1}"#), None);
    assert_eq!(read("[]"), None);
}

#[test]
fn a_preference_is_one_allocation_of_its_text() {
    let preference = Preference::parse(" FR-ch ;q=0.5 , de , *;q=0.1, en;q=0").unwrap();
    let weighted: Vec<(&str, u16)> = preference.weighted().collect();
    assert_eq!(
        weighted,
        [("de", 1000), ("fr-ch", 500), ("*", 100), ("en", 0)]
    );
    assert!(preference.refuses("en"));
    assert!(!preference.refuses("de"));
}

#[test]
fn languages_are_well_formed_tags_in_conventional_case() {
    assert_eq!(Language::parse("de-ch").unwrap().as_str(), "de-CH");
    assert_eq!(
        Language::parse("zh-hant-tw").unwrap().as_str(),
        "zh-Hant-TW"
    );
    assert!(Language::parse("fr").unwrap().is("FR"));
    for bad in ["", "fr_FR", "123", "de-", "a-b-c-d-e-f-g-h-i-j-k"] {
        assert!(Language::parse(bad).is_none(), "{bad}");
    }
}
