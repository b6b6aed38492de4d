use clap::CommandFactory;

use super::*;

/// The command line as `mcp-prompts` reads it: every command names a
/// folder.
fn parse(line: &str) -> Result<Option<Command>, String> {
    let words = line.split_whitespace().map(str::to_owned);
    super::parse("mcp-prompts", "1.0", words, true).map_err(|error| error.to_string())
}

#[test]
fn the_declaration_is_consistent() {
    CommandLine::command().debug_assert();
}

#[test]
fn options_are_read_and_mistakes_named() {
    let Ok(Some(Command::Serve(serve))) = parse("serve prompts --http 9000 --prompts-as-tools")
    else {
        panic!("not a serve command");
    };
    assert_eq!(serve.dirs, [PathBuf::from("prompts")]);
    assert_eq!(serve.http, Some("127.0.0.1:9000".parse().unwrap()));
    assert!(serve.prompts_as_tools && !serve.over_http.stateless);
    assert!(matches!(parse(""), Ok(None)));
    assert!(parse("serve").unwrap_err().contains("<DIR>"));
    let Ok(Some(Command::Serve(two))) = parse("serve a b --prompts-as-tools") else {
        panic!("two folders");
    };
    assert_eq!(two.dirs, [PathBuf::from("a"), PathBuf::from("b")]);
    assert!(parse("serve a --nope").unwrap_err().contains("--nope"));
    assert!(
        parse("serve a --auth-issuer https://x")
            .unwrap_err()
            .contains("--http")
    );
    assert!(parse("serve a --stateless").unwrap_err().contains("--http"));
    assert!(
        parse("serve a --playground")
            .unwrap_err()
            .contains("--http")
    );
    assert!(
        parse("serve a --http --auth-jwks https://x/keys")
            .unwrap_err()
            .contains("--auth-issuer")
    );
    assert!(parse("run a").unwrap_err().contains("run"));
    // `--http` takes a port or an address, not the folder after it.
    let Ok(Some(Command::Serve(serve))) = parse("serve --http prompts") else {
        panic!("not a serve command");
    };
    assert_eq!(serve.dirs, [PathBuf::from("prompts")]);
    assert_eq!(serve.http, Some(DEFAULT_ADDR.parse().unwrap()));
    let Ok(Some(Command::Serve(any))) = parse("serve a --http 0.0.0.0:9000 --stateless") else {
        panic!("an address");
    };
    assert_eq!(any.http, Some("0.0.0.0:9000".parse().unwrap()));
    assert!(any.over_http.stateless);
    let Ok(Some(Command::Serve(last))) = parse("serve a --http") else {
        panic!("--http last");
    };
    assert_eq!(last.http, Some(DEFAULT_ADDR.parse().unwrap()));
    let Ok(Some(Command::Serve(capped))) = parse("serve a --max-result-bytes 1024") else {
        panic!("--max-result-bytes");
    };
    assert_eq!(capped.max_result_bytes, Some(1024));
    let Ok(Some(Command::Serve(held))) = parse("serve a --max-unsent-bytes 65536") else {
        panic!("--max-unsent-bytes");
    };
    assert_eq!(
        (held.max_unsent_bytes, capped.max_unsent_bytes),
        (Some(65536), None)
    );
    let no_number = parse("serve a --max-unsent-bytes 0").unwrap_err();
    assert!(no_number.contains("number of bytes"), "{no_number}");
    let no_number = parse("serve a --max-result-bytes lots").unwrap_err();
    assert!(no_number.contains("number of bytes"), "{no_number}");
    let no_url = parse("serve a --http --auth-issuer --stateless").unwrap_err();
    assert!(no_url.contains("--auth-issuer"), "{no_url}");
    let Ok(Some(Command::Serve(auth))) =
        parse("serve a --http --auth-issuer https://id --auth-audience https://me/mcp")
    else {
        panic!("--auth-issuer");
    };
    assert_eq!(auth.auth.issuer.as_deref(), Some("https://id"));
    let Ok(Some(Command::Serve(drained))) = parse("serve a --http --drain-delay 2.5") else {
        panic!("--drain-delay");
    };
    assert_eq!(
        drained.drain_delay,
        Some(std::time::Duration::from_millis(2500))
    );
    assert!(
        parse("serve a --drain-delay 2")
            .unwrap_err()
            .contains("--http")
    );
    assert!(
        parse("serve a --http --drain-delay soon")
            .unwrap_err()
            .contains("seconds")
    );
    assert_eq!(auth.auth.audience.as_deref(), Some("https://me/mcp"));
}

#[test]
fn render_takes_a_name_arguments_answers_and_folders() {
    let line = "render --dir a review language=rust code=x=1 --answer env=prod --format json";
    let Ok(Some(Command::Render(render))) = parse(line) else {
        panic!("not a render command");
    };
    assert_eq!(render.dirs, [PathBuf::from("a")]);
    assert_eq!(render.name, "review");
    let pairs = |list: &[(String, String)]| {
        list.iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
    };
    assert_eq!(pairs(&render.arguments), ["language=rust", "code=x=1"]);
    assert_eq!(pairs(&render.answers), ["env=prod"]);
    assert!(render.format == RenderFormat::Json && !render.raw);
    let Ok(Some(Command::Render(here))) = parse("render greet --raw") else {
        panic!("render greet");
    };
    assert_eq!(here.dirs, [PathBuf::from(".")]);
    assert!(here.raw);
    assert!(parse("render").unwrap_err().contains("<NAME>"));
    assert!(
        parse("render greet name")
            .unwrap_err()
            .contains("ARG=VALUE")
    );
    assert!(
        parse("render greet --answer x")
            .unwrap_err()
            .contains("FIELD=VALUE")
    );
}

#[test]
fn check_takes_folders_a_format_and_deny_warnings() {
    let Ok(Some(Command::Check(check))) = parse("check a b --format github --deny-warnings") else {
        panic!("not a check command");
    };
    assert_eq!(check.dirs, [PathBuf::from("a"), PathBuf::from("b")]);
    assert_eq!(check.format, Format::Github);
    assert!(check.deny_warnings && !check.skills_as_prompts);
    let Ok(Some(Command::Check(bridged))) = parse("check a --skills-as-prompts") else {
        panic!("check --skills-as-prompts");
    };
    assert!(bridged.skills_as_prompts);
    let Ok(Some(Command::Check(plain))) = parse("check a") else {
        panic!("check a");
    };
    assert_eq!(plain.format, Format::Text);
    assert!(!plain.deny_warnings);
    assert!(parse("check").unwrap_err().contains("<DIR>"));
    assert!(
        parse("check a --format yaml")
            .unwrap_err()
            .contains("github")
    );
    assert!(parse("check a --http").unwrap_err().contains("--http"));
}
