use super::*;

/// A dotprompt file's prompt, its front matter read here.
fn parse(
    text: &str,
    name: &str,
    origin: &str,
    icon: Option<&IconFile>,
    partials: &Partials,
) -> Result<(DynamicPrompt, Vec<Broken>), Broken> {
    super::parse(
        text,
        yaml::read_matter(text, origin),
        name,
        origin,
        icon,
        partials,
    )
    .map(|(prompt, warnings, _)| (prompt, warnings))
}

fn partials(files: &[(&str, &str)]) -> Partials {
    Partials::read(files.iter().copied())
}

fn problem(text: &str) -> Broken {
    problem_with(text, &[])
}

fn problem_with(text: &str, files: &[(&str, &str)]) -> Broken {
    match parse(text, "x", "x.prompt", None, &partials(files)) {
        Ok(_) => panic!("{text} was served"),
        Err(broken) => broken,
    }
}

#[test]
fn the_schema_declares_typed_arguments_and_defaults() {
    let text = "---\ndescription: Write a story\nmodel: googleai/gemini-2.0-flash\ninput:\n  schema:\n    topic: string, what it is about\n    words?: integer\n    style(enum, how it reads): [Formal, Casual]\n    points(array): string\n  default:\n    style: casual\n---\nWrite about {{topic}}{{#if words}} in {{words}} words{{/if}}, {{style}}.\n{{#each points}}- {{this}}\n{{/each}}";
    let (prompt, warnings) =
        parse(text, "story", "story.prompt", None, &Partials::default()).unwrap();
    assert!(warnings.is_empty());
    assert_eq!(prompt.description(), Some("Write a story"));
    let args = prompt.arguments();
    let shape: Vec<(&str, bool)> = args
        .iter()
        .map(|a| (a.get_name(), a.is_required()))
        .collect();
    assert_eq!(
        shape,
        [
            ("topic", true),
            ("words", false),
            ("style", false),
            ("points", true)
        ]
    );
    assert_eq!(args[2].get_choices(), ["Formal", "Casual"]);
    assert_eq!(args[2].get_default(), Some("casual"));
    // Typed arguments are shown with values of their type.
    let examples: Vec<Option<&str>> = args.iter().map(|a| a.get_example()).collect();
    assert_eq!(examples, [None, Some("3"), None, Some("[\"<points>\"]")]);
}

#[test]
fn a_json_schema_gives_its_examples() {
    let text = "---\ninput:\n  schema:\n    type: object\n    properties:\n      topic: {type: string, examples: [tides, waves]}\n      n: {type: integer}\n    required: [topic]\n---\n{{topic}} {{n}}";
    let (prompt, _) = parse(text, "x", "x.prompt", None, &Partials::default()).unwrap();
    let examples: Vec<Option<&str>> = prompt.arguments().iter().map(|a| a.get_example()).collect();
    assert_eq!(examples, [Some("tides"), Some("3")]);
}

#[test]
fn without_a_schema_the_template_declares_its_arguments() {
    let text = "Hi {{name}}.{{#if mood}} Feeling {{mood}}?{{/if}}{{#unless late}} On time.{{/unless}}\n{{#each items}}{{this}}{{/each}}";
    let (prompt, _) = parse(text, "x", "x.prompt", None, &Partials::default()).unwrap();
    let shape: Vec<(&str, bool)> = prompt
        .arguments()
        .iter()
        .map(|a| (a.get_name(), a.is_required()))
        .collect();
    assert_eq!(
        shape,
        [
            ("name", true),
            ("mood", false),
            ("late", false),
            ("items", false)
        ]
    );
}

#[test]
fn problems_name_their_line() {
    let cases: [(&str, usize, &str); 10] = [
        ("---\ninput: [x\n---\nHi", 2, "front matter"),
        (
            "---\ninput:\n  schema:\n    when: date\n---\n{{when}}",
            4,
            "`date`",
        ),
        (
            "---\ninput:\n  schema:\n    topic: string\n---\nHi {{topik}}",
            6,
            "`topik` is not declared",
        ),
        (
            "---\ninput:\n  schema:\n    topic: string\n    extra: string\n---\nHi {{topic}}",
            5,
            "never used",
        ),
        (
            "---\ninput:\n  schema:\n    xs: string\n---\n{{#each xs}}{{this}}{{/each}}",
            6,
            "needs an array",
        ),
        ("---\ntitle: x\n---\n\nHi\n{{#if x}}unclosed", 6, "template"),
        ("Hi\n{{role \"tool\"}}x", 2, "role `tool`"),
        ("Hi\n{{> missing}}", 2, "not found"),
        (
            "---\ninput:\n  default:\n    nope: 1\n---\nHi",
            4,
            "not an argument",
        ),
        (
            "---\ninput:\n  schema:\n    n: integer\n  default:\n    n: many\n---\n{{n}}",
            6,
            "not of its type",
        ),
    ];
    for (text, line, words) in cases {
        let broken = problem(text);
        assert_eq!(broken.line, Some(line), "{text}: {}", broken.message);
        assert!(broken.message.contains(words), "{text}: {}", broken.message);
    }
    assert!(problem("---\ntitle: x\n").message.contains("closing"));
    // `unused` lets a declared argument go unused, on purpose.
    let unused = "---\ninput:\n  schema:\n    a: string\n    b: string\nunused: [b]\n---\n{{a}}";
    assert!(parse(unused, "x", "x.prompt", None, &Partials::default()).is_ok());
}

#[test]
fn partials_that_include_themselves_or_break_are_problems() {
    let looped = problem_with(
        "Hi\n{{> a}}",
        &[("_a.prompt", "{{> b}}"), ("_b.prompt", "{{> a}}")],
    );
    assert_eq!(looped.line, Some(2));
    assert!(looped.message.contains("a -> b -> a"), "{}", looped.message);
    let own = problem_with("{{> me}}", &[("_me.prompt", "again {{> me}}")]);
    assert!(own.message.contains("includes itself"), "{}", own.message);
    let broken = problem_with("x\n\n{{> bad}}", &[("_bad.prompt", "{{#if}}")]);
    assert_eq!(broken.line, Some(3));
    assert!(broken.message.contains("_bad.prompt"), "{}", broken.message);
    let files = partials(&[
        ("_bad.prompt", "ok\n{{#each}}"),
        ("sub/_card.prompt", "Card"),
    ]);
    assert_eq!(
        files.problem("_bad.prompt").unwrap().unwrap_err().line,
        Some(2)
    );
    assert!(files.problem("sub/_card.prompt").unwrap().is_ok());
    assert!(parse("{{> sub/card}}", "x", "x", None, &files).is_ok());
    // A partial reading the includer's arguments declares them too.
    let (prompt, _) = parse(
        "{{> greet}}",
        "x",
        "x",
        None,
        &partials(&[("_greet.prompt", "Hi {{who}}")]),
    )
    .unwrap();
    assert_eq!(prompt.arguments()[0].get_name(), "who");
}

#[test]
fn what_could_exhaust_the_loader_is_refused() {
    // Nesting deep enough to exhaust a thread's stack.
    let deep = format!("Hi\n{}x{}", "{{#if a}}".repeat(200), "{{/if}}".repeat(200));
    let broken = problem(&deep);
    assert_eq!(broken.line, Some(2), "{}", broken.message);
    assert!(
        broken.message.contains("nests more than 64"),
        "{}",
        broken.message
    );
    // Written with a space, as an `else if` chain, across partials: a
    // render nests as deep, and each is refused on its line.
    let spaced = format!("Hi\n{}x{}", "{{ #if a}}".repeat(70), "{{ /if}}".repeat(70));
    assert_eq!(problem(&spaced).line, Some(2));
    let chain = format!(
        "Hi\n\n{{{{#if a}}}}x{}{{{{/if}}}}",
        "{{else if b}}y".repeat(100)
    );
    let broken = problem(&chain);
    assert_eq!(broken.line, Some(3), "{}", broken.message);
    assert!(
        broken.message.contains("nests more than 64"),
        "{}",
        broken.message
    );
    let half = format!("{}x{}", "{{#if a}}".repeat(40), "{{/if}}".repeat(40));
    let split = problem_with(
        &format!(
            "Hi\n{}{{{{> half}}}}{}",
            "{{#if a}}".repeat(40),
            "{{/if}}".repeat(40)
        ),
        &[("_half.prompt", &half)],
    );
    assert_eq!(split.line, Some(2), "{}", split.message);
    assert!(
        split.message.contains("nests more than 64"),
        "{}",
        split.message
    );
    // Brackets past any template's need do not parse.
    let brackets = format!("{{{{x {}}}}}", "[".repeat(100));
    assert!(problem(&brackets).message.contains("template"));
    // Partials that each include the next four times: 4^8 inclusions.
    let mut files: Vec<(String, String)> = (0..8)
        .map(|i| {
            (
                format!("_p{i}.prompt"),
                format!("{{{{> p{}}}}}", i + 1).repeat(4),
            )
        })
        .collect();
    files.push(("_p8.prompt".into(), "x".into()));
    let files: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    let broken = problem_with("{{> p0}}", &files);
    assert!(
        broken.message.contains("more than 1000"),
        "{}",
        broken.message
    );
}

#[test]
fn partials_and_names_are_read_as_handlebars_reads_them() {
    // `key=value` pairs join the includer's context: the partial still
    // reads `topic` from it.
    let files = [("_card.PROMPT", "{{who}} on {{topic}}")];
    let (prompt, _) = parse("{{> card who=name}}", "x", "x", None, &partials(&files)).unwrap();
    let names: Vec<&str> = prompt
        .arguments()
        .iter()
        .map(crate::dynamic::DynamicArgument::get_name)
        .collect();
    assert_eq!(names, ["name", "topic"]);
    // A local `@` variable is no argument; `this/x` and `[x]` are.
    let (prompt, _) = parse(
        "{{@rootx}}{{this/a}}{{[b]}}",
        "x",
        "x",
        None,
        &Partials::default(),
    )
    .unwrap();
    let names: Vec<&str> = prompt
        .arguments()
        .iter()
        .map(crate::dynamic::DynamicArgument::get_name)
        .collect();
    assert_eq!(names, ["a", "b"]);
    // Helpers outside the subset take no names from the arguments.
    assert!(
        problem("{{#if x includeZero=true}}y{{/if}}")
            .message
            .contains("options")
    );
    // A default is checked against its type, an array's items too.
    let array = "---\ninput:\n  schema:\n    n(array): integer\n  default:\n    n: [a]\n---\n{{#each n}}{{this}}{{/each}}";
    assert_eq!(problem(array).line, Some(6));
}

#[test]
fn a_render_as_deep_as_allowed_fits_in_a_quarter_of_a_workers_stack() {
    // 64 levels: 40 blocks, a partial, 23 blocks in it.
    let inner = format!(
        "{}{{{{a}}}}{}",
        "{{#if a}}".repeat(23),
        "{{/if}}".repeat(23)
    );
    let text = format!(
        "{}{{{{> inner}}}}{}",
        "{{#if a}}".repeat(40),
        "{{/if}}".repeat(40)
    );
    let files = partials(&[("_inner.prompt", &inner)]);
    let (prompt, _) = parse(&text, "deep", "deep.prompt", None, &files).unwrap();
    // Tokio's workers have 2 MiB; this thread a quarter of that.
    let run = std::thread::Builder::new()
        .stack_size(512 * 1024)
        .spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .build()
                .unwrap();
            runtime.block_on(async {
                let service = crate::Server::new("t", "1")
                    .prompts([prompt])
                    .build()
                    .unwrap();
                let get = crate::request::GetPrompt::new("deep").arg("a", "yes");
                crate::testing::Client::new(&service).get(get).await
            })
        })
        .unwrap();
    assert_eq!(run.join().unwrap().unwrap().texts(), ["yes"]);
}

#[tokio::test]
async fn a_name_handlebars_has_a_helper_for_is_an_argument() {
    let (prompt, _) = parse("Count: {{len}}", "x", "x", None, &Partials::default()).unwrap();
    let (service, prompts) = crate::Server::new("t", "1")
        .prompts(std::iter::empty::<crate::catalog::AnyPrompt>())
        .build_live()
        .unwrap();
    prompts.add(prompt).unwrap();
    let get = crate::request::GetPrompt::new("x").arg("len", "3");
    let got = crate::testing::Client::new(&service)
        .get(get)
        .await
        .unwrap();
    assert_eq!(got.texts(), ["Count: 3"]);
}

#[test]
fn bom_crlf_and_system_roles_are_read_as_meant() {
    let text = "\u{feff}---\r\ndescription: CRLF\r\n---\r\n{{role \"system\"}}Be brief.\r\n{{role \"user\"}}{{q}}\r\n";
    let (prompt, warnings) = parse(text, "x", "x.prompt", None, &Partials::default()).unwrap();
    assert_eq!(prompt.description(), Some("CRLF"));
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0].line, Some(4));
    assert!(
        warnings[0].message.contains("system"),
        "{}",
        warnings[0].message
    );
}
