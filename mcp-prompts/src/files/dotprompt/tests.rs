//! Cases from dotprompt's own spec suite (`spec/*.yaml` in the dotprompt
//! repository), for the subset prompt files support, rendered through a
//! served prompt as a client gets it. Each names the spec case it follows.

use serde_json::{Value, json};

use super::{Partials, parse};
use crate::Server;
use crate::catalog::AnyPrompt;
use crate::content::Role;
use crate::request::GetPrompt;
use crate::testing::Client;

/// The messages `template` (with `partials`) renders for `input`, as a
/// client gets them: role and text.
async fn render(template: &str, partials: &[(&str, &str)], input: &Value) -> Vec<(Role, String)> {
    let files: Vec<(String, &str)> = partials
        .iter()
        .map(|(name, text)| (format!("_{name}.prompt"), *text))
        .collect();
    let partials = Partials::read(files.iter().map(|(path, text)| (path.as_str(), *text)));
    let matter = crate::files::yaml::read_matter(template, "case.prompt");
    let (prompt, _, _) = parse(template, matter, "case", "case.prompt", None, &partials)
        .unwrap_or_else(|broken| panic!("{template}: {broken:?}"));
    let (service, prompts) = Server::new("t", "1")
        .prompts(std::iter::empty::<AnyPrompt>())
        .build_live()
        .unwrap();
    prompts.add(prompt).unwrap();
    let mut request = GetPrompt::new("case");
    for (name, value) in input.as_object().unwrap() {
        let text = match value {
            Value::String(text) => text.clone(),
            other => other.to_string(),
        };
        request = request.arg(name.clone(), text);
    }
    let got = Client::new(&service).get(request).await.unwrap();
    got.transcript()
        .into_iter()
        .map(|(role, text)| (role, text.to_owned()))
        .collect()
}

fn user(text: &str) -> Vec<(Role, String)> {
    vec![(Role::User, text.to_owned())]
}

/// variables.yaml: basic, default, override, no HTML escaping.
#[tokio::test]
async fn variables() {
    let basic = "Hello, {{name}}!\n";
    assert_eq!(
        render(basic, &[], &json!({"name": "Michael"})).await,
        user("Hello, Michael!\n")
    );
    let defaulted = "---\ninput:\n  default:\n    name: User\n---\nHello, {{name}}!";
    assert_eq!(
        render(defaulted, &[], &json!({})).await,
        user("Hello, User!")
    );
    assert_eq!(
        render(defaulted, &[], &json!({"name": "Pavel"})).await,
        user("Hello, Pavel!")
    );
    assert_eq!(
        render(basic, &[], &json!({"name": "<b>Pavel</b>"})).await,
        user("Hello, <b>Pavel</b>!\n")
    );
}

/// whitespace.yaml: `~` strips whitespace on its side, in blocks too.
#[tokio::test]
async fn whitespace_control() {
    let name = json!({"name": "Beautiful"});
    for (template, text) in [
        ("Hello   {{~name~}}   World\n", "HelloBeautifulWorld\n"),
        ("Hello   {{~name}} World\n", "HelloBeautiful World\n"),
        ("Hello {{name~}}   World\n", "Hello BeautifulWorld\n"),
        ("Hello {{ name }} World\n", "Hello Beautiful World\n"),
    ] {
        assert_eq!(render(template, &[], &name).await, user(text), "{template}");
    }
    let multiline = "<div>\n    {{~value~}}\n</div>\n";
    assert_eq!(
        render(multiline, &[], &json!({"value": "Content"})).await,
        user("<div>Content</div>\n")
    );
    let each = "---\ninput:\n  schema:\n    items(array): string\n---\nItems:{{#each items~}}\n- {{this}}\n{{~/each}}Done";
    assert_eq!(
        render(each, &[], &json!({"items": ["one", "two", "three"]})).await,
        user("Items:- one- two- threeDone")
    );
    let block = "---\ninput:\n  schema:\n    show: boolean\n---\nStart\n{{~#if show~}}\nContent\n{{~/if~}}\nEnd";
    assert_eq!(
        render(block, &[], &json!({"show": true})).await,
        user("StartContentEnd")
    );
    assert_eq!(
        render(block, &[], &json!({"show": false})).await,
        user("StartEnd")
    );
}

/// partials.yaml: inclusion, a context given by hash, nesting, a
/// Handlebars comment stripped, a `#` line kept.
#[tokio::test]
async fn partials() {
    let basic = "{{> greeting}} This is the main template.\n";
    assert_eq!(
        render(basic, &[("greeting", "Hello from a partial!")], &json!({})).await,
        user("Hello from a partial! This is the main template.\n")
    );
    let with_context = "{{> userGreeting name=username}}\n";
    assert_eq!(
        render(
            with_context,
            &[("userGreeting", "Welcome back, {{name}}!")],
            &json!({"username": "Alice"})
        )
        .await,
        user("Welcome back, Alice!")
    );
    let nested = [
        ("resolvedOuter", "Hello from {{> resolvedInner}}!"),
        ("resolvedInner", "a nested resolved partial"),
    ];
    assert_eq!(
        render("{{> resolvedOuter}}\n", &nested, &json!({})).await,
        user("Hello from a nested resolved partial!")
    );
    let licensed = "{{!--\n  Copyright 2025 Google LLC\n  SPDX-License-Identifier: Apache-2.0\n--}}\nHello, {{name}}!\n";
    assert_eq!(
        render(
            "{{> licensedPartial name=\"World\"}}\n",
            &[("licensedPartial", licensed)],
            &json!({})
        )
        .await,
        user("Hello, World!\n")
    );
    let hash = "# This is NOT a comment in partials\nContent here.\n";
    assert_eq!(
        render("{{> hashPartial}}\n", &[("hashPartial", hash)], &json!({})).await,
        user("# This is NOT a comment in partials\nContent here.\n")
    );
}

/// helpers/role.yaml: roles start messages; MCP has no system role, so a
/// system message is the user's, and `model` is the assistant.
#[tokio::test]
async fn roles() {
    let system = "{{role \"system\"}}{{systemGreeting}} from system\n{{role \"user\"}}{{userGreeting}} from user\n";
    assert_eq!(
        render(
            system,
            &[],
            &json!({"systemGreeting": "hi", "userGreeting": "howdy"})
        )
        .await,
        [
            (Role::User, "hi from system\n".to_owned()),
            (Role::User, "howdy from user\n".to_owned()),
        ]
    );
    // As dotprompt's renderer (js/src/parse.ts): a body after front
    // matter is trimmed; the text between role marks is kept as it is,
    // newlines included; only pieces of blanks are dropped.
    let spaced = "---\ninput:\n  schema:\n    q: string\n---\n\n{{role \"system\"}}\nBe brief.\n\n{{role \"user\"}}\n{{q}}\n\n";
    assert_eq!(
        render(spaced, &[], &json!({"q": "Why?"})).await,
        [
            (Role::User, "\nBe brief.\n\n".to_owned()),
            (Role::User, "\nWhy?".to_owned()),
        ]
    );
    let all = "{{role \"system\"}}this is system\n{{role \"user\"}}this is user1\n{{role \"model\"}}this is model\n{{role \"user\"}}this is user2\n";
    let roles: Vec<Role> = render(all, &[], &json!({}))
        .await
        .into_iter()
        .map(|(r, _)| r)
        .collect();
    assert_eq!(roles, [Role::User, Role::User, Role::Assistant, Role::User]);
}

/// unicode.yaml: `{{#each}}` with `{{#unless @last}}`, any script.
#[tokio::test]
async fn iteration_and_unicode() {
    let template = "{{#each greetings}}{{this}}{{#unless @last}}, {{/unless}}{{/each}}\n";
    let greetings = json!({"greetings": ["Hello", "你好", "こんにちは", "안녕하세요", "مرحبا"]});
    assert_eq!(
        render(template, &[], &greetings).await,
        user("Hello, 你好, こんにちは, 안녕하세요, مرحبا\n")
    );
    let indexed = "{{#each xs}}{{@index}}:{{this}} {{/each}}\n";
    assert_eq!(
        render(indexed, &[], &json!({"xs": ["a", "b"]})).await,
        user("0:a 1:b \n")
    );
}
