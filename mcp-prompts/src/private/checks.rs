//! Compile-time work on argument lists, run by `const` items the macros
//! emit: splicing flattened structs into a prompt's arguments, and the
//! checks only the compiler can do because no single macro sees every name
//! (a flattened struct's fields, a catalog's entries). A failed check panics
//! during const evaluation, which the compiler reports as an error at the
//! item the macro spanned on the user's token.

use crate::descriptor::{ArgDef, ArgType, ParamKind};

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
    title: None,
    description: None,
    default: None,
    complete: None,
    ty: &ArgType {
        kind: ParamKind::Injected,
        expected: "",
        choices: &[],
        check: |_| Ok(()),
        canonical: |_| None,
    },
};

/// Fails if two arguments of `owner` (a prompt or a `PromptArgs` struct)
/// share a name once flattened structs are spliced in.
pub const fn check_unique(args: &[ArgDef], owner: &str) {
    let mut i = 0;
    while i < args.len() {
        let mut j = 0;
        while j < i {
            if is_client_arg(&args[i]) && is_client_arg(&args[j]) && eq(args[i].name, args[j].name)
            {
                let msg = Msg::new()
                    .push("argument name `")
                    .push(args[i].name)
                    .push("` is used twice in ")
                    .push(owner)
                    .push(" once `#[arg(flatten)]` structs are spliced in; rename one with `#[arg(name = \"...\")]`");
                panic!("{}", msg.as_str());
            }
            j += 1;
        }
        i += 1;
    }
}

/// Fails unless `placeholder` names an argument of the prompt.
pub const fn check_placeholder(args: &[ArgDef], placeholder: &str, prompt: &str) {
    if find(args, placeholder).is_none() {
        let msg = Msg::new()
            .push("template placeholder `{")
            .push(placeholder)
            .push("}` names no argument of prompt `")
            .push(prompt)
            .push("`; write `{{` for a literal brace");
        panic!("{}", msg.as_str());
    }
}

/// Fails if the template leaves an argument unused that is not listed in
/// the prompt's `unused = [...]`.
pub const fn check_used(args: &[ArgDef], used: &[&str], unused: &[&str], prompt: &str) {
    let mut i = 0;
    while i < args.len() {
        let name = args[i].name;
        if is_client_arg(&args[i]) && !contains(used, name) && !contains(unused, name) {
            let msg = Msg::new()
                .push("argument `")
                .push(name)
                .push("` of prompt `")
                .push(prompt)
                .push("` is not used by its template; use it as `{")
                .push(name)
                .push("}`, or say it is unused on purpose: `#[prompt(unused = [\"")
                .push(name)
                .push("\"])]`");
            panic!("{}", msg.as_str());
        }
        i += 1;
    }
}

/// Fails unless each name in a template prompt's `unused = [...]` is an
/// argument of the prompt.
pub const fn check_unused_names(args: &[ArgDef], unused: &[&str], prompt: &str) {
    let mut i = 0;
    while i < unused.len() {
        if find(args, unused[i]).is_none() {
            let msg = Msg::new()
                .push("`")
                .push(unused[i])
                .push("` in `unused = [...]` is not an argument of prompt `")
                .push(prompt)
                .push("`");
            panic!("{}", msg.as_str());
        }
        i += 1;
    }
}

/// Fails if `name` is also the name of an earlier entry of a `catalog![]`.
pub const fn check_catalog_entry(earlier: &[&str], name: &str) {
    if contains(earlier, name) {
        let msg = Msg::new()
            .push("duplicate prompt name `")
            .push(name)
            .push("` in `catalog![]`: an earlier entry has the same name");
        panic!("{}", msg.as_str());
    }
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

/// A message assembled during const evaluation, where `format!` is not
/// available. Pieces that do not fit are dropped whole.
struct Msg {
    buf: [u8; 512],
    len: usize,
}

impl Msg {
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

    const fn as_str(&self) -> &str {
        match core::str::from_utf8(self.buf.split_at(self.len).0) {
            Ok(text) => text,
            Err(_) => "invalid prompt definition",
        }
    }
}

#[cfg(test)]
mod tests {
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
    fn messages_are_assembled() {
        assert_eq!(Msg::new().push("a `").push("b").push("`").as_str(), "a `b`");
        assert!(eq("tone", "tone") && !eq("tone", "tones"));
    }
}
