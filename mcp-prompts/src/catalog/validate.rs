//! The rules every served prompt must follow.

use super::{AnyPrompt, Kind};
use crate::descriptor::PromptDef;
use crate::protocol::is_valid_name;

/// The name rule for every prompt; a run-time prompt's arguments were
/// checked when it was built.
pub(super) fn validate(prompt: &AnyPrompt, problems: &mut Vec<String>) {
    if !is_valid_name(prompt.name()) {
        problems.push(format!(
            "prompt name `{}` at {} must be 1 to 128 characters of A-Z, a-z, 0-9, `_`, `-` and `.`",
            prompt.name(),
            prompt.location(),
        ));
    }
    if let Kind::Macro(def) = prompt.0 {
        validate_macro(def, problems);
    }
}

/// Rules the macro already enforces, checked again for definitions that did
/// not come from it, plus defaults and examples, which only parsing can check.
fn validate_macro(def: &PromptDef, problems: &mut Vec<String>) {
    for (i, arg) in def.params.iter().enumerate() {
        if def.params[..i].iter().any(|a| a.name == arg.name) {
            problems.push(format!(
                "prompt `{}` declares argument `{}` twice",
                def.name, arg.name
            ));
        }
        // Defaults and examples of types the compiler can parse were
        // checked when the crate compiled; the rest only parsing can check.
        let written = [("default", arg.default), ("example", arg.example())];
        for (what, value) in written {
            let Some(value) = value else { continue };
            if let Some(range) = arg.range.filter(|range| !range.holds(value)) {
                problems.push(format!(
                    "prompt `{}` at {}: {what} `{value}` of argument `{}` is outside its range: {}",
                    def.name,
                    def.location(),
                    arg.name,
                    range.describe(),
                ));
            }
            if let Err(reason) = (arg.ty.check)(value) {
                problems.push(format!(
                    "prompt `{}` at {}: {what} `{value}` of argument `{}` is not a valid value: expected {} ({reason})",
                    def.name,
                    def.location(),
                    arg.name,
                    arg.ty.expected,
                ));
            }
        }
    }
}
