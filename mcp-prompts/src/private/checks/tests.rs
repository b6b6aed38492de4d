use super::*;

const fn arg(name: &'static str) -> ArgDef {
    ArgDef {
        name,
        ..PLACEHOLDER
    }
}

#[test]
fn splices_in_order() {
    const PARTS: &[&[ArgDef]] = &[&[arg("a")], &[arg("b"), arg("c")], &[]];
    const ALL: [ArgDef; arg_count(PARTS)] = splice(PARTS);
    let names: Vec<_> = ALL.iter().map(|a| a.name).collect();
    assert_eq!(names, ["a", "b", "c"]);
}

#[test]
fn defaults_are_checked_as_the_runtime_parses() {
    for (text, signed, bits, ok) in [
        ("255", false, 8, true),
        ("256", false, 8, false),
        ("-1", false, 16, false),
        ("+7", false, 16, true),
        ("-128", true, 8, true),
        ("-129", true, 8, false),
        ("127", true, 8, true),
        ("128", true, 8, false),
        ("340282366920938463463374607431768211455", false, 128, true),
        ("340282366920938463463374607431768211456", false, 128, false),
        ("-170141183460469231731687303715884105728", true, 128, true),
        ("1.5", true, 32, false),
        ("", true, 32, false),
        ("-", true, 32, false),
    ] {
        assert_eq!(fits_integer(text, signed, bits), ok, "{text}");
    }
    for (text, signed, bits, ok) in [
        ("+", true, 32, false),
        ("-0", false, 8, false),
        ("007", false, 8, true),
        ("16777216", false, 24, true),
    ] {
        assert_eq!(fits_integer(text, signed, bits), ok, "{text}");
    }
    for n in -300..300 {
        let text = n.to_string();
        assert_eq!(fits_integer(&text, true, 8), text.parse::<i8>().is_ok());
        assert_eq!(fits_integer(&text, false, 8), text.parse::<u8>().is_ok());
    }
    for (text, ok) in [
        ("1.5", true),
        ("-2", true),
        (".5", true),
        ("5.", true),
        ("1e10", true),
        ("1E-3", true),
        ("inf", true),
        ("-Infinity", true),
        ("NaN", true),
        ("e5", false),
        (".", false),
        ("1e", false),
        ("abc", false),
        ("1.5x", false),
    ] {
        assert_eq!(is_number(text.as_bytes()), ok, "{text}");
        assert_eq!(
            text.parse::<f64>().is_ok(),
            ok,
            "{text}: the runtime agrees"
        );
    }
    assert_eq!(char_count("é"), 1);
    assert_eq!(char_count("ab"), 2);
    let accepted = &[("formal", 0), ("casual", 1), ("relaxed", 1)];
    assert!(is_one_of(b"Relaxed", accepted));
    assert!(!is_one_of(b"conventinal", accepted));
    assert!(!is_one_of(b"formals", accepted) && !is_one_of(b"", accepted));
    assert!(is_one_of("Förmal".as_bytes(), accepted), "left to start-up");
    assert!(!is_one_of(b"form", accepted), "a prefix is not a spelling");
    assert!(
        is_one_of(b"x", &[("formal", 0), ("\u{e9}t\u{e9}", 1)]),
        "left to start-up"
    );
    assert!(is_one_of(b"", &[("", 0)]));
}

#[test]
fn messages_are_assembled() {
    assert_eq!(
        Problem::new().push("a `").push("b").push("`").as_str(),
        "a `b`"
    );
    assert!(eq("tone", "tone") && !eq("tone", "tones"));
}
