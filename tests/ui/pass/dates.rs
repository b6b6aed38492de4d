//! Each date crate's types as arguments, in a prompt, an argument struct
//! and a template, with defaults, examples and typed builders; must compile
//! without warnings.
#![deny(warnings)]

use mcp_prompts::{Catalog, GetPrompt, PromptArgs, catalog, prompt};

/// When something happens, in every crate's words
#[derive(PromptArgs)]
struct When {
    /// The day
    #[arg(example = "2026-07-28")]
    day: chrono::NaiveDate,
    /// The instant
    at: Option<jiff::Timestamp>,
    /// The offset date-time
    #[arg(default = "2026-07-28T09:00:00Z")]
    until: time::OffsetDateTime,
}

/// A plan
#[prompt]
fn plan(
    #[arg(flatten)] when: When,
    #[arg(default = "09:00:00")] start: chrono::NaiveTime,
    zoned: Option<jiff::Zoned>,
    local: Option<time::PrimitiveDateTime>,
    civil: Option<jiff::civil::DateTime>,
    utc: Option<chrono::DateTime<chrono::Utc>>,
    offset: Option<chrono::DateTime<chrono::FixedOffset>>,
    date: Option<time::Date>,
    clock: Option<time::Time>,
    naive: Option<chrono::NaiveDateTime>,
    jdate: Option<jiff::civil::Date>,
    jtime: Option<jiff::civil::Time>,
) -> String {
    let _ = (zoned, local, civil, utc, offset, date, clock, naive, jdate, jtime);
    format!("{} {:?} {} {start}", when.day, when.at, when.until)
}

/// A template over a date
#[prompt(template = "Due {due}.")]
fn due(due: jiff::civil::Date);

const CATALOG: Catalog = catalog![plan, due];

fn main() {
    let _ = CATALOG;
    let day = chrono::NaiveDate::from_ymd_opt(2026, 7, 28).unwrap();
    let _: GetPrompt = plan::args()
        .when(|w| w.day(day).until("2026-07-28T09:00:00Z"))
        .start(chrono::NaiveTime::from_hms_opt(9, 0, 0).unwrap())
        .into();
    let _: GetPrompt = due::args().due(jiff::civil::date(2026, 7, 28)).into();
}
