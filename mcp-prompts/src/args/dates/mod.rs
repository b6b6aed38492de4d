//! Dates, times and instants from `chrono`, `jiff` and `time` (features of
//! the same names), parsed from RFC 3339 / ISO 8601 text as each crate
//! parses it. Each type says how it is written, shown after the argument's
//! description (`(format: YYYY-MM-DD)`), and a form field of a date or an
//! instant carries the JSON Schema `format` (`date`, `date-time`), which
//! hosts show as a date picker. Defaults are checked when the server is
//! built: none of the crates parses in `const`.

/// Implements [`PromptArg`](crate::PromptArg) for a date type: what a value
/// looks like, its format, its form `format`, how it parses, and (where
/// its `Display` is not what it parses) how a value is written.
macro_rules! date_arg {
    ($ty:ty, $expected:literal, $format:literal, $schema:expr, $parse:expr) => {
        date_arg!($ty, $expected, $format, $schema, $parse, |value: &$ty| {
            value.to_string()
        });
    };
    ($ty:ty, $expected:literal, $format:literal, $schema:expr, $parse:expr, $text:expr) => {
        impl $crate::PromptArg for $ty {
            const EXPECTED: &'static str = $expected;
            const FORMAT: Option<&'static str> = Some($format);
            const SCHEMA_FORMAT: Option<&'static str> = $schema;

            fn parse_arg(value: &str) -> Result<Self, String> {
                let parse: fn(&str) -> Result<Self, String> = $parse;
                parse(value.trim())
            }

            fn to_arg_text(&self) -> String {
                let text: fn(&$ty) -> String = $text;
                text(self)
            }
        }
    };
}

#[cfg(feature = "chrono")]
mod chrono;
#[cfg(feature = "jiff")]
mod jiff;
#[cfg(feature = "time")]
mod time;
