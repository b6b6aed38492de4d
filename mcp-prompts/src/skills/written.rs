//! A `SKILL.md` written from a front matter held as JSON, for skills from
//! code: one field a line, every value in YAML's flow style (JSON's
//! syntax, which YAML shares), escaped so that YAML 1.1 and 1.2 readers
//! alike read back the same value. A host compares the front matter it
//! reads field by field with the entry, so one reader seeing a string
//! where another sees a number would make it refuse the skill.

use std::fmt::Write as _;

use serde_json::{Map, Number, Value};

/// The `SKILL.md`: `---`, the front matter, `---`, the instructions.
pub(crate) fn skill_md(front_matter: &Map<String, Value>, instructions: &str) -> String {
    let mut text = String::from("---\n");
    for (key, value) in front_matter {
        string(&mut text, key);
        text.push_str(": ");
        flow(&mut text, value);
        text.push('\n');
    }
    text.push_str("---\n");
    text.push_str(instructions);
    text
}

fn flow(out: &mut String, value: &Value) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => number(out, n),
        Value::String(s) => string(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                flow(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (key, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                string(out, key);
                out.push_str(": ");
                flow(out, item);
            }
            out.push('}');
        }
    }
}

/// A number; a float always with a `.` and a signed exponent, which YAML
/// 1.1 readers need to read a float (`1e20` is text to them).
fn number(out: &mut String, n: &Number) {
    let text = n.to_string();
    if !n.is_f64() {
        out.push_str(&text);
        return;
    }
    let (mantissa, exponent) = match text.split_once(['e', 'E']) {
        Some((m, e)) => (m, Some(e)),
        None => (text.as_str(), None),
    };
    out.push_str(mantissa);
    if !mantissa.contains('.') {
        out.push_str(".0");
    }
    if let Some(exponent) = exponent {
        out.push('e');
        if !exponent.starts_with(['-', '+']) {
            out.push('+');
        }
        out.push_str(exponent);
    }
}

/// A double-quoted string; every character a YAML reader may refuse or
/// fold (controls, DEL, the C1 range with NEL, the line and paragraph
/// separators, the byte order mark, U+FFFE and U+FFFF) as an escape.
fn string(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control()
                || matches!(
                    c,
                    '\u{2028}' | '\u{2029}' | '\u{feff}' | '\u{fffe}' | '\u{ffff}'
                ) =>
            {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_json_holds_is_written_as_every_yaml_reader_reads_it() {
        let matter = serde_json::json!({
            "name": "n",
            "text": "a\"b\\c\nd\u{85}e\u{7f}f\u{2028}g",
            "numbers": [1, -2, 0.5, 1e20, 2.5e-7, 100.0],
            "nested": {"ok": true, "none": null},
        });
        let text = skill_md(matter.as_object().unwrap(), "Body\n");
        assert_eq!(
            text,
            "---\n\"name\": \"n\"\n\
             \"nested\": {\"none\": null, \"ok\": true}\n\
             \"numbers\": [1, -2, 0.5, 1.0e+20, 2.5e-7, 100.0]\n\
             \"text\": \"a\\\"b\\\\c\\nd\\u0085e\\u007ff\\u2028g\"\n---\nBody\n"
        );
        // What a YAML reader reads back is the front matter.
        #[cfg(feature = "files")]
        {
            let front = text.split("---\n").nth(1).unwrap();
            let read: yaml_serde::Value = yaml_serde::from_str(front).unwrap();
            let read = serde_json::to_value(read).unwrap();
            assert_eq!(read, matter);
        }
    }
}
