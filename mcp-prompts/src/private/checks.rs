//! Compile-time work on argument lists, run by `const` items the macros
//! emit: splicing flattened structs into a prompt's arguments, and the
//! checks only the compiler can do because no single macro sees every name
//! (a flattened struct's fields, a catalog's entries). A failed check panics
//! during const evaluation; each check is `#[track_caller]`, so the
//! compiler reports the panic at the call the macro spanned on the user's
//! token. The messages are built only once a check has failed.

use crate::descriptor::{ArgDef, ArgType, DefaultCheck, ParamKind};

/// How many arguments the parts hold together.
pub const fn arg_count(parts: &[&[ArgDef]]) -> usize {
    let mut total = 0;
    let mut i = 0;
    while i < parts.len() {
        total += parts[i].len();
        i += 1;
    }
    total
}

/// The parts' arguments, in order, as one array of `N = arg_count(parts)`.
pub const fn splice<const N: usize>(parts: &[&[ArgDef]]) -> [ArgDef; N] {
    let mut out = [PLACEHOLDER; N];
    let mut k = 0;
    let mut i = 0;
    while i < parts.len() {
        let mut j = 0;
        while j < parts[i].len() {
            out[k] = parts[i][j];
            k += 1;
            j += 1;
        }
        i += 1;
    }
    assert!(k == N, "splice: N must equal arg_count(parts)");
    out
}

const PLACEHOLDER: ArgDef = ArgDef {
    name: "",
    title: "",
    description: "",
    default: None,
    example: "",
    range: None,
    complete: None,
    ty: &ArgType {
        kind: ParamKind::Injected,
        expected: "",
        choices: &[],
        check: |_| Ok(()),
        canonical: |_| None,
        default_check: DefaultCheck::AtStartup,
        format: None,
        schema_format: None,
    },
};

/// Fails if two arguments of `owner` (a prompt or a `PromptArgs` struct)
/// share a name once flattened structs are spliced in.
#[track_caller]
pub const fn check_unique(args: &[ArgDef], owner: &str) {
    fail_on(duplicate_name(args, owner));
}

const fn duplicate_name(args: &[ArgDef], owner: &str) -> Option<Problem> {
    let mut i = 0;
    while i < args.len() {
        let mut j = 0;
        while j < i {
            if is_client_arg(&args[i]) && is_client_arg(&args[j]) && eq(args[i].name, args[j].name)
            {
                let msg = Problem::new()
                    .push("argument name `")
                    .push(args[i].name)
                    .push("` is used twice in ")
                    .push(owner)
                    .push(" once `#[arg(flatten)]` structs are spliced in; rename one with `#[arg(name = \"...\")]`");
                return Some(msg);
            }
            j += 1;
        }
        i += 1;
    }
    None
}

/// Fails unless `placeholder` names an argument of the prompt.
#[track_caller]
pub const fn check_placeholder(args: &[ArgDef], placeholder: &str, prompt: &str) {
    if find(args, placeholder).is_none() {
        let msg = Problem::new()
            .push("template placeholder `{")
            .push(placeholder)
            .push("}` names no argument of prompt `")
            .push(prompt)
            .push("`; write `{{` for a literal brace");
        fail(&msg);
    }
}

/// Fails if the template leaves an argument unused that is not listed in
/// the prompt's `unused = [...]`.
#[track_caller]
pub const fn check_used(args: &[ArgDef], used: &[&str], unused: &[&str], prompt: &str) {
    let mut i = 0;
    while i < args.len() {
        let name = args[i].name;
        if is_client_arg(&args[i]) && !contains(used, name) && !contains(unused, name) {
            let msg = Problem::new()
                .push("argument `")
                .push(name)
                .push("` of prompt `")
                .push(prompt)
                .push("` is not used by its template; use it as `{")
                .push(name)
                .push("}`, or say it is unused on purpose: `#[prompt(unused = [\"")
                .push(name)
                .push("\"])]`");
            fail(&msg);
        }
        i += 1;
    }
}

/// Fails unless each name in a template prompt's `unused = [...]` is an
/// argument of the prompt.
#[track_caller]
pub const fn check_unused_names(args: &[ArgDef], unused: &[&str], prompt: &str) {
    let mut i = 0;
    while i < unused.len() {
        if find(args, unused[i]).is_none() {
            let msg = Problem::new()
                .push("`")
                .push(unused[i])
                .push("` in `unused = [...]` is not an argument of prompt `")
                .push(prompt)
                .push("`");
            fail(&msg);
        }
        i += 1;
    }
}

/// Fails if a template's section depends on argument `name` while the
/// argument is always set: required, with no default, and not a `bool`
/// (whose section shows when it is `true`). An unknown name is another
/// check's to report.
#[track_caller]
pub const fn check_section(args: &[ArgDef], name: &str, prompt: &str) {
    let Some(i) = find(args, name) else {
        return;
    };
    let arg = &args[i];
    let choices = arg.ty.choices;
    let is_bool = choices.len() == 2 && eq(choices[0], "true") && eq(choices[1], "false");
    if matches!(arg.ty.kind, ParamKind::Required) && arg.default.is_none() && !is_bool {
        let msg = Problem::new()
            .push("the template's section `{#")
            .push(name)
            .push("}` depends on argument `")
            .push(name)
            .push("` of prompt `")
            .push(prompt)
            .push("`, which is required and so always set: make it an `Option`, give it a default, or make it a `bool`");
        fail(&msg);
    }
}

/// Fails if `name` is also the name of an earlier entry of a `catalog![]`:
/// `earlier` holds each earlier entry's path, as written, and prompt name.
#[track_caller]
pub const fn check_catalog_entry(earlier: &[(&str, &str)], name: &str) {
    let mut i = 0;
    while i < earlier.len() {
        let (path, earlier_name) = earlier[i];
        if eq(earlier_name, name) {
            let msg = Problem::new()
                .push("duplicate prompt name `")
                .push(name)
                .push("` in `catalog![]`: `")
                .push(path)
                .push(
                    "` has it too; give one of them another name with `#[prompt(name = \"...\")]`",
                );
            fail(&msg);
        }
        i += 1;
    }
}

/// Fails unless `default` is a value of the type behind `ty`, as far as
/// the compiler can tell ([`DefaultCheck`]); what it cannot tell is
/// checked when the server is built.
#[track_caller]
pub const fn check_default(ty: &ArgType, default: &str, arg: &str) {
    check_value(ty, default, arg, "default");
}

/// Fails unless `example` is a value of the type behind `ty`, as
/// [`check_default`] does for a default: an example is shown and rendered
/// as if a client had sent it.
#[track_caller]
pub const fn check_example(ty: &ArgType, example: &str, arg: &str) {
    check_value(ty, example, arg, "example");
}

/// Fails unless the argument is a number: `#[arg(range = ..)]` bounds
/// numbers only.
#[track_caller]
pub const fn check_range_type(ty: &ArgType, arg: &str) {
    if let DefaultCheck::Integer { .. } | DefaultCheck::Number = ty.default_check {
        return;
    }
    fail(
        &Problem::new()
            .push("`range` bounds a number, and argument `")
            .push(arg)
            .push("` is ")
            .push(ty.expected),
    );
}

/// Fails unless `bound` is a value of the argument's number type (one that
/// is no number is [`check_range_type`]'s to report).
#[track_caller]
pub const fn check_range_bound(ty: &ArgType, bound: &str, arg: &str) {
    if let DefaultCheck::Integer { .. } | DefaultCheck::Number = ty.default_check {
        check_value(ty, bound, arg, "range bound");
    }
}

#[track_caller]
const fn check_value(ty: &ArgType, value: &str, arg: &str, what: &str) {
    // Decided first with a plain `bool`: a value that fits, the common
    // case, costs no message.
    if default_fits(ty.default_check, value) {
        return;
    }
    let msg = if let DefaultCheck::NoDefault = ty.default_check {
        Problem::new()
            .push("parameter `")
            .push(arg)
            .push("` takes no ")
            .push(what)
            .push(": the server supplies it, so it is not an argument")
    } else {
        Problem::new()
            .push(what)
            .push(" `")
            .push(value)
            .push("` of argument `")
            .push(arg)
            .push("` is not a valid value: expected ")
            .push(ty.expected)
    };
    fail(&msg);
}

/// Whether `default` is a value of a type checked by `check`, as the
/// runtime parses it; only ASCII whitespace at either end is ignored here
/// (the runtime trims any).
const fn default_fits(check: DefaultCheck, default: &str) -> bool {
    match check {
        DefaultCheck::AtStartup | DefaultCheck::Anything => true,
        DefaultCheck::NoDefault => false,
        DefaultCheck::Integer { signed, bits } => fits_integer(default.trim_ascii(), signed, bits),
        DefaultCheck::Number => is_number(default.trim_ascii().as_bytes()),
        DefaultCheck::Character => char_count(default) == 1,
        DefaultCheck::OneOf(accepted) => is_one_of(default.trim_ascii().as_bytes(), accepted),
    }
}

/// Whether `text` is an integer in the range of a `bits`-bit integer:
/// std's own parser, which the runtime's `str::parse` uses too. Other
/// widths than std's are accepted here and checked at start-up.
const fn fits_integer(text: &str, signed: bool, bits: u32) -> bool {
    match (signed, bits) {
        (false, 8) => u8::from_str_radix(text, 10).is_ok(),
        (false, 16) => u16::from_str_radix(text, 10).is_ok(),
        (false, 32) => u32::from_str_radix(text, 10).is_ok(),
        (false, 64) => u64::from_str_radix(text, 10).is_ok(),
        (false, 128) => u128::from_str_radix(text, 10).is_ok(),
        (true, 8) => i8::from_str_radix(text, 10).is_ok(),
        (true, 16) => i16::from_str_radix(text, 10).is_ok(),
        (true, 32) => i32::from_str_radix(text, 10).is_ok(),
        (true, 64) => i64::from_str_radix(text, 10).is_ok(),
        (true, 128) => i128::from_str_radix(text, 10).is_ok(),
        // A width no std integer has (a user's own `PromptArg`): left to
        // the check at start-up.
        _ => true,
    }
}

/// Whether `text` is a floating-point number as `str::parse` reads one:
/// `[+-](inf|infinity|nan|digits[.digits][e[+-]digits])`, any case for
/// the words, with digits before or after the point.
const fn is_number(text: &[u8]) -> bool {
    let rest = match text {
        [b'-' | b'+', rest @ ..] => rest,
        _ => text,
    };
    if eq_ignore_case(rest, b"inf")
        || eq_ignore_case(rest, b"infinity")
        || eq_ignore_case(rest, b"nan")
    {
        return true;
    }
    let mut i = 0;
    let mut digits = 0;
    while i < rest.len() && rest[i].is_ascii_digit() {
        i += 1;
        digits += 1;
    }
    if i < rest.len() && rest[i] == b'.' {
        i += 1;
        while i < rest.len() && rest[i].is_ascii_digit() {
            i += 1;
            digits += 1;
        }
    }
    if digits == 0 {
        return false;
    }
    if i < rest.len() && (rest[i] == b'e' || rest[i] == b'E') {
        i += 1;
        if i < rest.len() && (rest[i] == b'-' || rest[i] == b'+') {
            i += 1;
        }
        let start = i;
        while i < rest.len() && rest[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    i == rest.len()
}

/// How many characters `text` holds.
const fn char_count(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut count = 0;
    let mut i = 0;
    while i < bytes.len() {
        // Every character has exactly one byte that is not `10xxxxxx`.
        if bytes[i] & 0xC0 != 0x80 {
            count += 1;
        }
        i += 1;
    }
    count
}

/// Whether `text` is one of `accepted`, ASCII case-insensitively. A value
/// or spelling that is not ASCII is left to the runtime's full Unicode
/// comparison, at start-up. One pass per spelling, folding case inline:
/// const evaluation pays for every call of a function of ours.
const fn is_one_of(text: &[u8], accepted: &[(&str, usize)]) -> bool {
    let mut i = 0;
    while i < text.len() {
        if text[i] >= 0x80 {
            return true;
        }
        i += 1;
    }
    let mut i = 0;
    while i < accepted.len() {
        let spelling = accepted[i].0.as_bytes();
        let mut j = 0;
        let mut same = spelling.len() == text.len();
        while j < spelling.len() {
            let (a, b) = (spelling[j], if j < text.len() { text[j] } else { 0 });
            if a >= 0x80 {
                return true;
            }
            // ASCII letters fold to lower case by setting one bit.
            let a = if a.is_ascii_uppercase() { a | 0x20 } else { a };
            let b = if b.is_ascii_uppercase() { b | 0x20 } else { b };
            if a != b {
                same = false;
            }
            j += 1;
        }
        if same {
            return true;
        }
        i += 1;
    }
    false
}

const fn eq_ignore_case(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if !a[i].eq_ignore_ascii_case(&b[i]) {
            return false;
        }
        i += 1;
    }
    true
}

const fn is_client_arg(arg: &ArgDef) -> bool {
    !matches!(arg.ty.kind, ParamKind::Injected)
}

const fn find(args: &[ArgDef], name: &str) -> Option<usize> {
    let mut i = 0;
    while i < args.len() {
        if is_client_arg(&args[i]) && eq(args[i].name, name) {
            return Some(i);
        }
        i += 1;
    }
    None
}

const fn contains(list: &[&str], name: &str) -> bool {
    let mut i = 0;
    while i < list.len() {
        if eq(list[i], name) {
            return true;
        }
        i += 1;
    }
    false
}

const fn eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Panics with `problem`'s message, if there is one, reported where the
/// check was called.
#[track_caller]
const fn fail_on(problem: Option<Problem>) {
    if let Some(problem) = problem {
        fail(&problem);
    }
}

/// Panics with `problem`'s message, reported where the check was called.
#[track_caller]
const fn fail(problem: &Problem) {
    panic!("{}", problem.as_str())
}

/// What a failed check says, assembled during const evaluation, where
/// `format!` is not available (pieces that do not fit are dropped whole).
/// The check panics with it, reported at the user's token and nowhere else.
struct Problem {
    buf: [u8; 512],
    len: usize,
}

impl Problem {
    const fn new() -> Self {
        Self {
            buf: [0; 512],
            len: 0,
        }
    }

    const fn push(mut self, piece: &str) -> Self {
        let bytes = piece.as_bytes();
        if self.len + bytes.len() <= self.buf.len() {
            let mut i = 0;
            while i < bytes.len() {
                self.buf[self.len + i] = bytes[i];
                i += 1;
            }
            self.len += bytes.len();
        }
        self
    }

    /// The message.
    pub const fn as_str(&self) -> &str {
        match core::str::from_utf8(self.buf.split_at(self.len).0) {
            Ok(text) => text,
            Err(_) => "invalid prompt definition",
        }
    }
}

#[cfg(test)]
mod tests;
