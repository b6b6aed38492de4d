//! `check DIR...`: the catalog and the folders read as `serve` reads them,
//! and every problem and warning printed, for a person or for CI.

use std::fmt::Write as _;

use crate::contract::{Changes, Contract};
use crate::files::FileProblem;
use crate::server::Server;
use serde_json::json;

use super::args::{Check, Format};
use super::escape;
use super::folders::Folders;

/// One thing found: a problem (not served) or a warning (served all the
/// same).
struct Finding {
    problem: bool,
    path: String,
    line: Option<usize>,
    message: String,
}

impl Finding {
    fn of_file(problem: bool, found: &FileProblem) -> Self {
        Self {
            problem,
            path: found.path.display().to_string(),
            line: found.line,
            message: found.message.clone(),
        }
    }

    /// A skill's problem, as the server words it: `path:line: message` or
    /// `path: message`.
    fn of_skill(text: &str) -> Self {
        let (place, message) = text.split_once(": ").unwrap_or(("", text));
        let (path, line) = match place.rsplit_once(':') {
            Some((path, line)) if line.parse::<usize>().is_ok() => (path, line.parse().ok()),
            _ => (place, None),
        };
        Self {
            problem: true,
            path: path.to_owned(),
            line,
            message: message.to_owned(),
        }
    }
}

/// Reads the folders and prints what it found; the exit code: 0 clean, 1
/// if something fails the check.
pub(super) fn run(mut server: Server, check: &Check) -> std::io::Result<i32> {
    super::folders::check_dirs(&check.dirs)?;
    if check.skills_as_prompts {
        server = server.skills_as_prompts();
    }
    let folders = Folders::of(&check.dirs);
    let (service, dirs) = super::folders::load(server, &folders)?;
    // A repository's root with nothing to read, a linked prompt folder:
    // found before any file is read.
    let mut findings: Vec<Finding> = folders
        .problems()
        .iter()
        .map(|p| Finding::of_file(true, p))
        .collect();
    for dir in &dirs {
        findings.extend(dir.problems().iter().map(|p| Finding::of_file(true, p)));
    }
    findings.extend(
        service
            .skill_problems()
            .iter()
            .map(|p| Finding::of_skill(p)),
    );
    let linked = folders.warnings().iter();
    findings.extend(linked.map(|w| Finding::of_file(false, w)));
    for dir in &dirs {
        findings.extend(dir.warnings().iter().map(|w| Finding::of_file(false, w)));
    }
    // Skills whose prompt gives way to a prompt of the same name: served
    // all the same, as skills.
    findings.extend(service.skill_warnings().iter().map(|w| Finding {
        problem: false,
        ..Finding::of_skill(w)
    }));
    // The catalog's own prompts and the files'.
    let prompts_served = service.prompt_count();
    let (problems, warnings) = (
        findings.iter().filter(|f| f.problem).count(),
        findings.iter().filter(|f| !f.problem).count(),
    );
    // The catalog against the one that shipped, when asked.
    let changes = match &check.against {
        Some(file) => {
            let shipped = super::contract::read_file(file)?;
            Some(Changes::between(&shipped, &Contract::of(&service)))
        }
        None => None,
    };
    let mut report = match check.format {
        Format::Text => text(&findings),
        Format::Json => json(
            &findings,
            prompts_served,
            service.skill_count(),
            changes.as_ref(),
        ),
        Format::Github => github(&findings),
    };
    if let (Some(changes), Format::Text | Format::Github) = (&changes, check.format) {
        report.push_str(&super::contract::report(changes, check.format));
    }
    print!("{report}");
    // The runner reads workflow commands on stderr too.
    eprintln!(
        "check: prompts: {prompts_served}, skills: {}, problems: {problems}, warnings: {warnings} ({})",
        service.skill_count(),
        escape::line(&folders.describe()),
    );
    let broken = changes.as_ref().is_some_and(|changes| {
        super::contract::outcome(changes, check.contract.allow_breaking) != 0
    });
    let failed = problems > 0 || (check.deny_warnings && warnings > 0) || broken;
    Ok(i32::from(failed))
}

fn text(findings: &[Finding]) -> String {
    let mut out = String::new();
    for f in findings {
        let kind = if f.problem { "" } else { "warning: " };
        let (path, message) = (escape::line(&f.path), escape::line(&f.message));
        let _ = match f.line {
            Some(line) => writeln!(out, "{path}:{line}: {kind}{message}"),
            None => writeln!(out, "{path}: {kind}{message}"),
        };
    }
    out
}

fn json(findings: &[Finding], prompts: usize, skills: usize, changes: Option<&Changes>) -> String {
    let list = |problem: bool| -> Vec<serde_json::Value> {
        findings
            .iter()
            .filter(|f| f.problem == problem)
            .map(|f| json!({"path": f.path, "line": f.line, "message": f.message}))
            .collect()
    };
    let mut report = json!({
        "prompts": prompts,
        "skills": skills,
        "problems": list(true),
        "warnings": list(false),
    });
    if let Some(changes) = changes {
        report["contract"] = serde_json::to_value(changes).unwrap_or_default();
    }
    // The paths stay the real ones, each character escaped as JSON.
    format!("{}\n", escape::json(&format!("{report:#}")))
}

/// GitHub Actions workflow commands, one a finding: the text escaped as
/// for a person, then encoded as the runner reads it.
fn github(findings: &[Finding]) -> String {
    let (data, property) = (escape::workflow_data, escape::workflow_property);
    let mut out = String::new();
    for f in findings {
        let kind = if f.problem { "error" } else { "warning" };
        let mut properties = format!("file={}", property(&f.path));
        if let Some(line) = f.line {
            let _ = write!(properties, ",line={line}");
        }
        let _ = writeln!(out, "::{kind} {properties}::{}", data(&f.message));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skill_problems_are_read_back_into_their_place() {
        let f = Finding::of_skill("skills/pdf/SKILL.md:3: the name differs");
        assert_eq!((f.path.as_str(), f.line), ("skills/pdf/SKILL.md", Some(3)));
        assert_eq!(f.message, "the name differs");
        let f = Finding::of_skill("skills/x: not read: denied");
        assert_eq!((f.path.as_str(), f.line), ("skills/x", None));
        assert_eq!(f.message, "not read: denied");
    }

    #[test]
    fn github_annotations_are_escaped() {
        let found = [Finding {
            problem: true,
            path: "a,b:c.md".into(),
            line: Some(2),
            message: "50% broken\nsecond line\u{1b}[2J".into(),
        }];
        assert_eq!(
            github(&found),
            "::error file=a%2Cb%3Ac.md,line=2::50%25 broken\\nsecond line\\u{1b}[2J\n"
        );
    }
}
