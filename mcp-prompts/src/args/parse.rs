use std::fmt::Display;

use crate::descriptor::DefaultCheck;

/// A type a prompt argument's string value parses into.
///
/// Implemented for `String`, every integer and float type, `bool`, `char`,
/// [`Json<T>`](crate::Json) and a few standard types. For any type that
/// implements [`FromStr`](std::str::FromStr), one line does it:
///
/// ```
/// #[derive(Debug, PartialEq)]
/// struct Version(u32, u32);
///
/// impl std::str::FromStr for Version {
///     type Err = String;
///     fn from_str(s: &str) -> Result<Self, String> {
///         let (a, b) = s.split_once('.').ok_or("expected MAJOR.MINOR")?;
///         Ok(Version(a.parse().map_err(|_| "bad major")?, b.parse().map_err(|_| "bad minor")?))
///     }
/// }
///
/// mcp_prompts::prompt_arg_from_str!(Version, "a version such as 1.2");
///
/// use mcp_prompts::PromptArg;
/// assert_eq!(Version::parse_arg("1.2"), Ok(Version(1, 2)));
/// assert!(Version::parse_arg("x").is_err());
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be parsed from a prompt argument",
    label = "not a prompt argument type",
    note = "implement `mcp_prompts::PromptArg` for `{Self}`; a type that implements `FromStr` needs one line: `mcp_prompts::prompt_arg_from_str!({Self});`"
)]
pub trait PromptArg: Sized {
    /// What a valid value looks like, for error messages: "an integer from 0 to 255".
    const EXPECTED: &'static str;

    /// The values a client may send, when the type accepts only a fixed set
    /// (`#[derive(PromptArg)]` enums, `bool`). They are shown in the
    /// listing and offered as completions. Empty (the default) means any
    /// value that parses.
    const CHOICES: &'static [&'static str] = &[];

    /// How `#[arg(default = ...)]` values of this type are checked when the
    /// crate compiles. [`DefaultCheck::AtStartup`] (the default) leaves it
    /// to [`Server::build`](crate::Server::build), which parses them.
    const DEFAULT_CHECK: DefaultCheck = DefaultCheck::AtStartup;

    /// How a value is written, where the type says more than "text"
    /// (`Json<T>`: `JSON`; a date: `YYYY-MM-DD`). A host shows only an
    /// argument's description, so the listing adds it there, after the
    /// author's words, as it adds choices and defaults: `(format: JSON)`.
    /// None by default.
    const FORMAT: Option<&'static str> = None;

    /// The JSON Schema `format` of a form field of this type, one MCP
    /// forms know (`date`, `date-time`, `email`, `uri`): hosts show a date
    /// picker for a date. None by default.
    const SCHEMA_FORMAT: Option<&'static str> = None;

    /// Parses the value a client sent; the error is a short reason.
    fn parse_arg(value: &str) -> Result<Self, String>;

    /// The canonical spelling of `value`, where the type has one: a choice
    /// sent as `Formal` is `formal`. Templates show values this way.
    fn canonical(value: &str) -> Option<&'static str> {
        let _ = value;
        None
    }

    /// The text a client would send for `self`, which
    /// [`parse_arg`](Self::parse_arg) reads back: a typed builder sends
    /// it. Its `Display` by default.
    fn to_arg_text(&self) -> String
    where
        Self: Display,
    {
        self.to_string()
    }
}

/// Implements [`PromptArg`] for a type through its [`FromStr`](std::str::FromStr)
/// implementation, whose error's `Display` becomes the reason.
///
/// The optional second argument describes a valid value for error messages;
/// it defaults to the type's name.
#[macro_export]
macro_rules! prompt_arg_from_str {
    ($ty:ty) => {
        $crate::prompt_arg_from_str!($ty, ::core::stringify!($ty));
    };
    ($ty:ty, $expected:expr) => {
        impl $crate::PromptArg for $ty {
            const EXPECTED: &'static str = $expected;
            fn parse_arg(value: &str) -> ::core::result::Result<Self, ::std::string::String> {
                <$ty as ::core::str::FromStr>::from_str(value)
                    .map_err(|err| ::std::string::ToString::to_string(&err))
            }
        }
    };
}

impl PromptArg for String {
    const EXPECTED: &'static str = "a string";
    const DEFAULT_CHECK: DefaultCheck = DefaultCheck::Anything;

    fn parse_arg(value: &str) -> Result<Self, String> {
        Ok(value.to_owned())
    }
}

macro_rules! integers {
    ($($ty:ty: $min:literal to $max:literal),* $(,)?) => {$(
        impl PromptArg for $ty {
            const EXPECTED: &'static str = concat!("an integer from ", $min, " to ", $max);
            const DEFAULT_CHECK: DefaultCheck = DefaultCheck::Integer {
                signed: <$ty>::MIN != 0,
                bits: <$ty>::BITS,
            };

            fn parse_arg(value: &str) -> Result<Self, String> {
                value.trim().parse().map_err(|err: std::num::ParseIntError| err.to_string())
            }
        }
    )*};
}

integers! {
    i8: "-128" to "127",
    i16: "-32768" to "32767",
    i32: "-2147483648" to "2147483647",
    i64: "-9223372036854775808" to "9223372036854775807",
    i128: "-2^127" to "2^127-1",
    isize: "-9223372036854775808" to "9223372036854775807",
    u8: "0" to "255",
    u16: "0" to "65535",
    u32: "0" to "4294967295",
    u64: "0" to "18446744073709551615",
    u128: "0" to "2^128-1",
    usize: "0" to "18446744073709551615",
}

macro_rules! floats {
    ($($ty:ty),*) => {$(
        impl PromptArg for $ty {
            const EXPECTED: &'static str = "a number";
            const DEFAULT_CHECK: DefaultCheck = DefaultCheck::Number;

            fn parse_arg(value: &str) -> Result<Self, String> {
                value.trim().parse().map_err(|err: std::num::ParseFloatError| err.to_string())
            }
        }
    )*};
}

floats!(f32, f64);

impl PromptArg for bool {
    const EXPECTED: &'static str = "`true` or `false`";
    const CHOICES: &'static [&'static str] = &["true", "false"];
    const DEFAULT_CHECK: DefaultCheck = DefaultCheck::OneOf(&[("true", 0), ("false", 1)]);

    fn canonical(value: &str) -> Option<&'static str> {
        Self::parse_arg(value)
            .ok()
            .map(|b| if b { "true" } else { "false" })
    }

    fn parse_arg(value: &str) -> Result<Self, String> {
        let value = value.trim();
        if value.eq_ignore_ascii_case("true") {
            Ok(true)
        } else if value.eq_ignore_ascii_case("false") {
            Ok(false)
        } else {
            Err("not a boolean".to_owned())
        }
    }
}

impl PromptArg for char {
    const EXPECTED: &'static str = "a single character";
    const DEFAULT_CHECK: DefaultCheck = DefaultCheck::Character;

    fn parse_arg(value: &str) -> Result<Self, String> {
        let mut chars = value.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Ok(c),
            (None, _) => Err("the value is empty".to_owned()),
            _ => Err("more than one character".to_owned()),
        }
    }
}

prompt_arg_from_str!(std::path::PathBuf, "a path");
prompt_arg_from_str!(std::net::IpAddr, "an IP address");
prompt_arg_from_str!(std::net::Ipv4Addr, "an IPv4 address");
prompt_arg_from_str!(std::net::Ipv6Addr, "an IPv6 address");
prompt_arg_from_str!(
    std::net::SocketAddr,
    "a socket address such as 127.0.0.1:8080"
);

/// A value a typed builder takes for a parameter of type `T`: a value of
/// the argument's type (sent as its `Display` text), or the text a client
/// would send, as `&str`, which is how a test sends a value that does not
/// parse. For an `Option<T>` parameter, the same values as for `T`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a value for a parameter of type `{T}`",
    label = "expected the argument's type or a `&str`",
    note = "a typed builder takes the argument's own type (if it implements `Display`) or the text a client would send, as `&str`"
)]
pub trait IntoArgText<T> {
    /// The text sent to the server.
    fn into_arg_text(self) -> String;
}

impl<T: PromptArg + Display> IntoArgText<T> for T {
    fn into_arg_text(self) -> String {
        self.to_arg_text()
    }
}

impl<T: PromptArg> IntoArgText<T> for &str {
    fn into_arg_text(self) -> String {
        self.to_owned()
    }
}

impl<T: PromptArg + Display> IntoArgText<Option<T>> for T {
    fn into_arg_text(self) -> String {
        self.to_arg_text()
    }
}

impl<T: PromptArg> IntoArgText<Option<T>> for &str {
    fn into_arg_text(self) -> String {
        self.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_integers_strictly() {
        assert_eq!(u32::parse_arg("50"), Ok(50));
        assert_eq!(u32::parse_arg(" 7 "), Ok(7));
        assert!(u32::parse_arg("-3").is_err());
        assert!(u32::parse_arg("1.5").is_err());
        assert!(u32::parse_arg("abc").is_err());
        assert!(u8::parse_arg("256").is_err());
        assert_eq!(i64::parse_arg("-3"), Ok(-3));
        assert_eq!(u32::EXPECTED, "an integer from 0 to 4294967295");
    }

    #[test]
    fn parses_other_scalars() {
        assert_eq!(f64::parse_arg("1.5"), Ok(1.5));
        assert_eq!(bool::parse_arg("TRUE"), Ok(true));
        assert_eq!(bool::parse_arg("False"), Ok(false));
        assert!(bool::parse_arg("yes").is_err());
        assert_eq!(char::parse_arg("é"), Ok('é'));
        assert!(char::parse_arg("ab").is_err());
        assert!(char::parse_arg("").is_err());
        assert_eq!(String::parse_arg(""), Ok(String::new()));
        assert!(std::net::IpAddr::parse_arg("1.2.3.4").is_ok());
    }
}
