//! Prompts a `macro_rules!` writes: several from one call share the line
//! of the call, and here their name too (a server would refuse to serve
//! both), yet each keeps its own restriction; so do prompts in function
//! bodies, whose module path is the same. Attributes passed as `meta`
//! fragments, and `literal` fragments as attribute values, still work.
#![deny(warnings)]

macro_rules! tenants {
    ($($tenant:ident => $scope:literal),*) => {$(
        pub mod $tenant {
            /// One tenant's summary
            #[mcp_prompts::prompt(scopes = [$scope])]
            pub fn summarize(text: String) -> String {
                text
            }
        }
    )*};
}

tenants!(acme => "acme", globex => "globex");

macro_rules! greeting {
    ($title:literal, $(#[$attr:meta])* $param:ident) => {
        /// Greet someone
        #[mcp_prompts::prompt(title = $title)]
        pub fn greet($(#[$attr])* $param: String) -> String {
            $param
        }
    };
}

greeting!(
    "Greeting",
    /// Who to greet
    #[arg(default = "world")]
    name
);

fn reset() -> &'static mcp_prompts::PromptDef {
    /// Reset everything
    #[mcp_prompts::prompt(name = "reset", scopes = ["admin"])]
    fn run() -> String {
        String::new()
    }
    run::PROMPT
}

fn hello() -> &'static mcp_prompts::PromptDef {
    /// Say hello
    #[mcp_prompts::prompt(name = "hello", scopes = ["user"])]
    fn run() -> String {
        String::new()
    }
    run::PROMPT
}

fn scopes(def: &mcp_prompts::PromptDef) -> Option<&'static [&'static str]> {
    def.restriction().map(|restriction| restriction.scopes)
}

fn main() {
    assert_eq!(scopes(acme::summarize::PROMPT), Some(&["acme"][..]));
    assert_eq!(scopes(globex::summarize::PROMPT), Some(&["globex"][..]));
    // The registered copies too, one each.
    let mut registered: Vec<_> = mcp_prompts::registered_prompts()
        .filter(|def| def.name() == "summarize")
        .map(scopes)
        .collect();
    registered.sort();
    assert_eq!(
        registered,
        [Some(&["acme"][..]), Some(&["globex"][..])],
        "each registered copy keeps its own restriction"
    );
    for def in mcp_prompts::registered_prompts() {
        match def.name() {
            "reset" => assert_eq!(scopes(def), Some(&["admin"][..])),
            "hello" => assert_eq!(scopes(def), Some(&["user"][..])),
            _ => {}
        }
    }
    assert_eq!(scopes(reset()), Some(&["admin"][..]));
    assert_eq!(scopes(hello()), Some(&["user"][..]));
    assert_eq!(greet::PROMPT.title(), Some("Greeting"));
    let name = greet::PROMPT.argument("name").expect("the argument");
    assert_eq!(name.default(), Some("world"));
    assert_eq!(name.description(), Some("Who to greet"));
    assert_eq!(greet("Ann".to_owned()), "Ann");
}
