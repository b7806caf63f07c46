//! Newtypes that parse input: once a value of one of these types exists, it is valid,
//! so code that receives one never checks again. Each `Deserialize` goes through
//! `TryFrom`, so a bad field becomes a 400 naming it (see `http::parse_json`).

use std::fmt;

use serde::{Deserialize, Serialize};
use unicode_normalization::UnicodeNormalization;

/// Largest id a JavaScript client can hold exactly (2^53).
pub const MAX_ID: u64 = 1 << 53;

/// A positive integer id below 2^53 (the clients send ids as JSON numbers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "WholeNumber", into = "u64")]
pub struct Id(u64);

/// A non-negative whole JSON number: `5812` or `5812.0` (JSON has one number type,
/// and JSON Schema's `integer` accepts both). Query strings and path segments parse
/// as before: their deserializers read the text as an unsigned integer themselves.
#[derive(Debug, Clone, Copy)]
pub struct WholeNumber(pub u64);

impl<'de> Deserialize<'de> for WholeNumber {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = WholeNumber;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a non-negative whole number")
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<WholeNumber, E> {
                Ok(WholeNumber(v))
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<WholeNumber, E> {
                u64::try_from(v)
                    .map(WholeNumber)
                    .map_err(|_| E::invalid_value(serde::de::Unexpected::Signed(v), &self))
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<WholeNumber, E> {
                // 2^64 as f64 is exact; below it every whole f64 fits a u64.
                if v.fract() == 0.0 && (0.0..18_446_744_073_709_551_616.0).contains(&v) {
                    Ok(WholeNumber(v as u64))
                } else {
                    Err(E::invalid_value(serde::de::Unexpected::Float(v), &self))
                }
            }
        }
        d.deserialize_u64(Visitor)
    }
}

impl TryFrom<WholeNumber> for Id {
    type Error = String;
    fn try_from(v: WholeNumber) -> Result<Self, String> {
        Id::try_from(v.0)
    }
}

impl Id {
    pub fn get(self) -> u64 {
        self.0
    }
    /// Zero-padded so that string order equals numeric order in sort keys.
    pub fn padded(self) -> String {
        format!("{:016}", self.0)
    }
}

impl TryFrom<u64> for Id {
    type Error = String;
    fn try_from(v: u64) -> Result<Self, String> {
        if (1..MAX_ID).contains(&v) {
            Ok(Id(v))
        } else {
            Err(format!("must be a positive integer below 2^53, got {v}"))
        }
    }
}

impl From<Id> for u64 {
    fn from(id: Id) -> u64 {
        id.0
    }
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::str::FromStr for Id {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let v: u64 = s.parse().map_err(|_| format!("'{s}' is not a valid id"))?;
        Id::try_from(v)
    }
}

/// A `String` newtype whose only way in is `$parse` (the raw string bound to `$raw`,
/// `Err` the reason it is refused): serde, `TryFrom`, `as_str`, `Display` and back.
macro_rules! string_newtype {
    ($(#[$meta:meta])* $name:ident($raw:ident) $parse:block) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
        #[serde(try_from = "String", into = "String")]
        pub struct $name(String);

        impl TryFrom<String> for $name {
            type Error = String;
            fn try_from($raw: String) -> Result<Self, String> {
                let parsed: Result<String, String> = $parse;
                parsed.map($name)
            }
        }
        impl $name {
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }
        impl From<$name> for String {
            fn from(v: $name) -> String {
                v.0
            }
        }
    };
}

string_newtype! {
    /// 3–32 ASCII letters, digits, `_`, `.` or `-`; unique case-insensitively.
    Username(v) {
        let v = v.trim().to_owned();
        let len = v.chars().count();
        if !(3..=32).contains(&len) {
            return Err("must be 3 to 32 characters long".into());
        }
        if !v
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
        {
            return Err("may contain only letters A-Z, digits and _ . -".into());
        }
        Ok(v)
    }
}

impl Username {
    /// The key uniqueness is checked on.
    pub fn key(&self) -> String {
        self.0.to_ascii_lowercase()
    }
}

string_newtype! {
    /// A syntactically valid address of at most 254 characters; unique case-insensitively.
    Email(v) {
        let v = clean_text(&v)?.unwrap_or_default();
        // email_address accepts quoted local parts and IP literals; a real inbox has a
        // dotted domain, so require one too.
        let domain_ok = v
            .rsplit_once('@')
            .is_some_and(|(_, d)| d.contains('.') && !d.starts_with('.') && !d.ends_with('.'));
        if v.len() > 254 || !email_address::EmailAddress::is_valid(&v) || !domain_ok {
            return Err("must be a valid email address".into());
        }
        Ok(v)
    }
}

impl Email {
    pub fn key(&self) -> String {
        self.0.to_lowercase()
    }
}

/// 8–128 characters. Never serialized: it only travels into the hasher.
#[derive(Clone, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub struct Password(String);

impl Password {
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Password {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Password(***)")
    }
}

impl TryFrom<String> for Password {
    type Error = String;
    fn try_from(v: String) -> Result<Self, String> {
        let len = v.chars().count();
        if !(8..=128).contains(&len) {
            return Err("must be 8 to 128 characters long".into());
        }
        Ok(Password(v))
    }
}

string_newtype! {
    /// 7–15 digits with an optional leading `+`. Spaces, dashes, dots and brackets that
    /// people type between digit groups are accepted and dropped.
    Phone(v) {
        let v = v.trim();
        let (plus, rest) = match v.strip_prefix('+') {
            Some(rest) => ("+", rest),
            None => ("", v),
        };
        let mut digits = String::with_capacity(rest.len());
        for c in rest.chars() {
            match c {
                '0'..='9' => digits.push(c),
                ' ' | '-' | '.' | '(' | ')' => {}
                _ => return Err("must be 7 to 15 digits, optionally starting with +".into()),
            }
        }
        if !(7..=15).contains(&digits.len()) {
            return Err("must be 7 to 15 digits, optionally starting with +".into());
        }
        Ok(format!("{plus}{digits}"))
    }
}

/// Degrees north, −90..=90.
pub type Latitude = Degrees<90>;

/// Degrees east, −180..=180.
pub type Longitude = Degrees<180>;

/// An angle in degrees within −`MAX`..=`MAX` ([`Latitude`], [`Longitude`]).
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Serialize, Deserialize)]
#[serde(try_from = "f64", into = "f64")]
pub struct Degrees<const MAX: u8>(f64);

/// DynamoDB stores no number of magnitude below 1e-130 (a subnormal like 2.2e-309
/// was a 500): a coordinate that close to 0 is 0.
fn flush_tiny(v: f64) -> f64 {
    if v.abs() < 1e-100 { 0.0 } else { v }
}

impl<const MAX: u8> TryFrom<f64> for Degrees<MAX> {
    type Error = String;
    fn try_from(v: f64) -> Result<Self, String> {
        let max = f64::from(MAX);
        if v.is_finite() && (-max..=max).contains(&v) {
            Ok(Degrees(flush_tiny(v)))
        } else {
            Err(format!("must be a number from -{MAX} to {MAX}, got {v}"))
        }
    }
}

impl<const MAX: u8> From<Degrees<MAX>> for f64 {
    fn from(v: Degrees<MAX>) -> f64 {
        v.0
    }
}

impl<const MAX: u8> Degrees<MAX> {
    pub fn get(self) -> f64 {
        self.0
    }
}

/// A point on the globe; both halves already in range. As a query (`?lat=&lng=`)
/// nothing else is taken.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LatLng {
    pub lat: Latitude,
    pub lng: Longitude,
}

impl LatLng {
    pub fn new(lat: f64, lng: f64) -> Result<Self, String> {
        Ok(LatLng {
            lat: Latitude::try_from(lat)?,
            lng: Longitude::try_from(lng)?,
        })
    }
}

/// Bidirectional formatting characters: they reorder what is shown, so a stored
/// value could read differently from what it is (a name, a phone number).
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Refused anywhere in free text: control characters other than a tab or a line
/// feed (NUL, escape, CR on its own...) and bidirectional formatting characters.
fn is_forbidden(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t') || is_bidi_control(c)
}

/// The line and paragraph separators: they break a line where no line feed is
/// (and end a string in older JavaScript), so a name could show as two lines.
fn is_line_separator(c: char) -> bool {
    matches!(c, '\u{2028}' | '\u{2029}')
}

/// Noncharacters: U+FDD0..U+FDEF and the last two code points of every plane
/// (U+FFFE, U+FFFF, U+1FFFE ... U+10FFFF), reserved for a program's own use and
/// never text (a patient name of only U+FFFF was once stored: docs/reliability.md).
fn is_noncharacter(c: char) -> bool {
    matches!(c, '\u{FDD0}'..='\u{FDEF}') || (c as u32) & 0xFFFE == 0xFFFE
}

/// Characters that show nothing on their own, trimmed from both ends like
/// whitespace: the Basic Multilingual Plane's Default_Ignorable_Code_Points that are
/// not bidirectional controls (zero-width spaces and joiners, the soft hyphen,
/// variation selectors, Hangul fillers...) and the blank Braille pattern, which is
/// often used as a "visible" blank. (The astral ones, tags and musical formatting,
/// count as visible: docs/openapi.yaml's patterns cannot name astral characters.)
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{034F}'
            | '\u{115F}'..='\u{1160}'
            | '\u{17B4}'..='\u{17B5}'
            | '\u{180B}'..='\u{180F}'
            | '\u{200B}'..='\u{200D}'
            | '\u{2060}'..='\u{2065}'
            | '\u{206A}'..='\u{206F}'
            | '\u{2800}'
            | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FEFF}'
            | '\u{FFA0}'
            | '\u{FFF0}'..='\u{FFF8}'
    )
}

/// Free text as it is stored: trimmed of whitespace and invisible characters at
/// both ends, CRLF line breaks as LF, in NFC (one spelling of "é", however it was
/// typed). Refused anywhere: a forbidden character ([`is_forbidden`]), a line or
/// paragraph separator (at the ends they are whitespace, trimmed) and a
/// noncharacter. `Ok(None)` when nothing is left ("\u{200b}\u{200b}" is blank);
/// otherwise it begins and ends with a visible character. docs/openapi.yaml's
/// `Text` patterns say the same (`api::openapi` checks them against this).
fn clean_text(v: &str) -> Result<Option<String>, String> {
    let trimmed = v.trim_matches(|c: char| c.is_whitespace() || is_invisible(c));
    let v: String = trimmed.replace("\r\n", "\n").nfc().collect();
    for c in v.chars() {
        let refused = if is_forbidden(c) {
            "control or bidirectional formatting characters"
        } else if is_line_separator(c) {
            "line or paragraph separators (a line feed breaks a line)"
        } else if is_noncharacter(c) {
            "noncharacters"
        } else {
            continue;
        };
        return Err(format!(
            "must not contain {refused} (found U+{:04X})",
            c as u32
        ));
    }
    Ok((!v.is_empty()).then_some(v))
}

/// Free text of 1 to `MAX` characters after trimming and NFC (names, addresses...),
/// with something visible in it and no control characters (see [`clean_text`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Text<const MAX: usize>(String);

impl<const MAX: usize> Text<MAX> {
    /// The most characters it takes: what the contract's `maxLength` must say.
    pub const MAX: usize = MAX;
}

impl<const MAX: usize> TryFrom<String> for Text<MAX> {
    type Error = String;
    fn try_from(v: String) -> Result<Self, String> {
        match clean_text(&v)? {
            None => Err("must not be blank".into()),
            Some(t) if t.chars().count() > MAX => Err(format!("must be at most {MAX} characters")),
            Some(t) => Ok(Text(t)),
        }
    }
}

impl<const MAX: usize> From<Text<MAX>> for String {
    fn from(v: Text<MAX>) -> String {
        v.0
    }
}

/// Optional free text: absent, null or blank all mean "none"; otherwise as [`Text`].
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(try_from = "Option<String>", into = "Option<String>")]
pub struct OptionalText<const MAX: usize>(pub Option<String>);

impl<const MAX: usize> OptionalText<MAX> {
    /// The most characters it takes: what the contract's `maxLength` must say.
    pub const MAX: usize = MAX;
}

impl<const MAX: usize> TryFrom<Option<String>> for OptionalText<MAX> {
    type Error = String;
    fn try_from(v: Option<String>) -> Result<Self, String> {
        match v.as_deref().map(clean_text).transpose()?.flatten() {
            Some(t) if t.chars().count() > MAX => Err(format!("must be at most {MAX} characters")),
            t => Ok(OptionalText(t)),
        }
    }
}

impl<const MAX: usize> From<OptionalText<MAX>> for Option<String> {
    fn from(v: OptionalText<MAX>) -> Option<String> {
        v.0
    }
}

/// Current time as an RFC 3339 UTC string with millisecond precision, the form every
/// timestamp is stored and sent in (string order equals time order).
pub fn now_rfc3339() -> String {
    format_rfc3339(time::OffsetDateTime::now_utc())
}

pub fn format_rfc3339(t: time::OffsetDateTime) -> String {
    let t = t.to_offset(time::UtcOffset::UTC);
    let format = time::macros::format_description!(
        "[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z"
    );
    t.format(&format).expect("a UTC time always formats")
}

/// A moment as stored and sent: RFC 3339 in UTC with milliseconds (`2026-03-04T05:06:07.000Z`),
/// so string order is time order and every stored value reads back. Only years 0000
/// to 9999 exist: a time that an offset pushes out of them (`0000-01-01T00:00:00+00:01`
/// is year -1 in UTC) has no such form and is refused when parsed, so it can never be
/// written (docs/reliability.md: one such report made every emergency nearby a 500).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Timestamp(time::OffsetDateTime);

impl Timestamp {
    pub fn now() -> Timestamp {
        Timestamp::new(time::OffsetDateTime::now_utc())
            .expect("the clock is within years 0000 to 9999")
    }

    /// `None` for a moment outside years 0000 to 9999 in UTC.
    pub fn new(t: time::OffsetDateTime) -> Option<Timestamp> {
        // `to_offset` panics when the result leaves the years `time` holds.
        let utc = t.checked_to_offset(time::UtcOffset::UTC)?;
        (0..=9999).contains(&utc.year()).then_some(Timestamp(utc))
    }

    /// `t`, or the system clock's now should `t` lie outside years 0000 to 9999 (a
    /// computed time or a test clock moved that far): for a moment the code itself
    /// makes, where a refusal would help nobody.
    pub fn new_or_now(t: time::OffsetDateTime) -> Timestamp {
        Timestamp::new(t).unwrap_or_else(Timestamp::now)
    }

    /// Any RFC 3339 time (any offset) whose UTC form has a 4-digit year.
    pub fn parse(text: &str) -> Option<Timestamp> {
        time::OffsetDateTime::parse(text.trim(), &time::format_description::well_known::Rfc3339)
            .ok()
            .and_then(Timestamp::new)
    }

    pub fn get(self) -> time::OffsetDateTime {
        self.0
    }
}

impl TryFrom<String> for Timestamp {
    type Error = String;
    fn try_from(text: String) -> Result<Self, String> {
        Timestamp::parse(&text)
            .ok_or_else(|| format!("'{text}' is not an RFC 3339 time of years 0000 to 9999"))
    }
}

impl From<Timestamp> for String {
    fn from(t: Timestamp) -> String {
        format_rfc3339(t.0)
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&format_rfc3339(self.0))
    }
}

/// Seconds since the Unix epoch, for TTL attributes.
pub fn epoch_seconds() -> i64 {
    time::OffsetDateTime::now_utc().unix_timestamp()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_positive_and_below_2_pow_53() {
        assert!(Id::try_from(0).is_err());
        assert!(Id::try_from(1).is_ok());
        assert!(Id::try_from(MAX_ID - 1).is_ok());
        assert!(Id::try_from(MAX_ID).is_err());
        assert!(Id::try_from(1 << 60).is_err());
        assert!("-1".parse::<Id>().is_err());
        assert!("abc".parse::<Id>().is_err());
        assert_eq!(Id::try_from(42).unwrap().padded(), "0000000000000042");
    }

    #[test]
    fn ids_are_json_numbers_with_a_whole_value() {
        let id = |json: &str| serde_json::from_str::<Id>(json).map(Id::get);
        assert_eq!(id("5812").unwrap(), 5812);
        assert_eq!(id("5812.0").unwrap(), 5812);
        assert_eq!(id("1e3").unwrap(), 1000);
        for bad in [
            "0",
            "-1",
            "1.5",
            "-0.0",
            "9007199254740992",
            "1e300",
            "\"1\"",
            "null",
        ] {
            assert!(id(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn usernames() {
        for ok in ["abc", "a.b-c_d", "Demo123", &"x".repeat(32)] {
            assert!(Username::try_from(ok.to_owned()).is_ok(), "{ok}");
        }
        for bad in [
            "ab",
            "",
            "has space",
            "ünïcode",
            "emoji😀x",
            &"x".repeat(33),
            "a/b",
        ] {
            assert!(Username::try_from(bad.to_owned()).is_err(), "{bad}");
        }
        assert_eq!(Username::try_from("DeMo".to_owned()).unwrap().key(), "demo");
    }

    #[test]
    fn emails() {
        assert!(Email::try_from("a@b.co".to_owned()).is_ok());
        assert_eq!(
            Email::try_from(" A@B.co ".to_owned()).unwrap().key(),
            "a@b.co"
        );
        for bad in ["", "a", "a@", "@b.co", "a@b", "a b@c.de", "a@b.", "a@.b"] {
            assert!(Email::try_from(bad.to_owned()).is_err(), "{bad}");
        }
    }

    #[test]
    fn passwords_count_characters() {
        assert!(Password::try_from("1234567".to_owned()).is_err());
        assert!(Password::try_from("12345678".to_owned()).is_ok());
        assert!(Password::try_from("é".repeat(128)).is_ok());
        assert!(Password::try_from("x".repeat(129)).is_err());
        assert_eq!(
            format!("{:?}", Password::try_from("secret123".to_owned()).unwrap()),
            "Password(***)"
        );
    }

    #[test]
    fn phones() {
        assert_eq!(
            Phone::try_from("+91 98765-43210".to_owned())
                .unwrap()
                .as_str(),
            "+919876543210"
        );
        assert!(Phone::try_from("1234567".to_owned()).is_ok());
        for bad in [
            "123456",
            "1234567890123456",
            "12a4567",
            "++1234567",
            "1+234567",
        ] {
            assert!(Phone::try_from(bad.to_owned()).is_err(), "{bad}");
        }
    }

    #[test]
    fn coordinates() {
        assert!(Latitude::try_from(90.0).is_ok());
        assert!(Latitude::try_from(90.0001).is_err());
        assert!(Latitude::try_from(f64::NAN).is_err());
        assert!(Longitude::try_from(-180.0).is_ok());
        assert!(Longitude::try_from(180.5).is_err());
        assert_eq!(Latitude::try_from(2.2e-309).unwrap().get(), 0.0);
        assert_eq!(Longitude::try_from(-1e-200).unwrap().get(), 0.0);
        assert_eq!(Longitude::try_from(1e-90).unwrap().get(), 1e-90);
    }

    #[test]
    fn text_is_nfc_without_controls_and_with_something_visible() {
        let text = |v: &str| Text::<20>::try_from(v.to_owned()).map(String::from);
        // "é" as e + combining acute becomes the one precomposed character.
        assert_eq!(text(" Jose\u{301} ").unwrap(), "Jos\u{e9}");
        assert_eq!(text("line\none\ttab").unwrap(), "line\none\ttab");
        assert_eq!(text("two\r\nlines").unwrap(), "two\nlines");
        assert_eq!(text("\u{200b}name\u{feff}").unwrap(), "name");
        assert_eq!(
            text("👩\u{200d}⚕\u{fe0f} Dr").unwrap(),
            "👩\u{200d}⚕\u{fe0f} Dr"
        );
        assert_eq!(text("کتاب\u{200c}ها").unwrap(), "کتاب\u{200c}ها");
        for bad in [
            "a\0b",
            "a\u{1b}[31m",
            "a\u{7f}",
            "a\u{85}b",
            "a\rb",
            "\u{202e}evil",
            "x\u{2066}y",
            "\u{200f}x",
        ] {
            let err = text(bad).unwrap_err();
            assert!(err.contains("control"), "{bad:?}: {err}");
        }
        for blank in [
            "   ",
            "\u{200b}\u{200b}",
            " \u{200b} ",
            "\u{2060}",
            "\u{feff}",
            "\u{3164}",
            "\u{2800}",
            "\u{ad}",
            "\u{fe0f}",
        ] {
            assert_eq!(text(blank).unwrap_err(), "must not be blank", "{blank:?}");
        }
        assert_eq!(
            text(&"x".repeat(21)).unwrap_err(),
            "must be at most 20 characters"
        );
        // Noncharacters, and line or paragraph separators inside text.
        for (bad, found) in [
            ("\u{ffff}", "noncharacters (found U+FFFF)"),
            ("a\u{fffe}", "noncharacters (found U+FFFE)"),
            ("a\u{fdd0}b", "noncharacters (found U+FDD0)"),
            ("a\u{fdef}b", "noncharacters (found U+FDEF)"),
            ("x\u{1fffe}", "noncharacters (found U+1FFFE)"),
            ("\u{10ffff}x", "noncharacters (found U+10FFFF)"),
            (
                "one\u{2028}two",
                "separators (a line feed breaks a line) (found U+2028)",
            ),
            (
                "one\u{2029}two",
                "separators (a line feed breaks a line) (found U+2029)",
            ),
        ] {
            let err = text(bad).unwrap_err();
            assert!(err.ends_with(found), "{bad:?}: {err}");
        }
        // Their neighbours are text; the separators at the ends are whitespace.
        for good in [
            "\u{fdcf}",
            "\u{fdf0}",
            "\u{fffd}",
            "\u{1fffd}",
            "\u{10fffd}",
        ] {
            assert_eq!(text(good).unwrap(), good);
        }
        assert_eq!(text("\u{2028}one\u{2029}").unwrap(), "one");
        let optional = |v: &str| OptionalText::<20>::try_from(Some(v.to_owned())).map(|t| t.0);
        assert_eq!(optional("  ").unwrap(), None);
        assert_eq!(optional("\u{200b}").unwrap(), None);
        assert!(optional("a\0").is_err());
        assert_eq!(
            optional("Cafe\u{301}").unwrap().as_deref(),
            Some("Caf\u{e9}")
        );
        assert!(Email::try_from("a\u{202e}b@example.com".to_owned()).is_err());
    }

    #[test]
    fn timestamps_sort_as_strings() {
        let a = format_rfc3339(time::macros::datetime!(2026-01-02 03:04:05.006 UTC));
        assert_eq!(a, "2026-01-02T03:04:05.006Z");
        let b = format_rfc3339(time::macros::datetime!(2026-01-02 03:04:05.010 UTC));
        assert!(a < b);
    }

    #[test]
    fn a_timestamp_always_reads_back() {
        let t = Timestamp::parse("2026-03-04T10:36:07.5+05:30").unwrap();
        assert_eq!(t.to_string(), "2026-03-04T05:06:07.500Z");
        assert_eq!(Timestamp::parse(&t.to_string()), Some(t));
        let json = serde_json::to_value(t).unwrap();
        assert_eq!(serde_json::from_value::<Timestamp>(json).unwrap(), t);
        // Year -1 and year 10000 in UTC have no 4-digit form: refused, never written.
        assert_eq!(Timestamp::parse("0000-01-01T00:00:00+00:01"), None);
        assert_eq!(Timestamp::parse("9999-12-31T23:59:00-00:01"), None);
        assert!(Timestamp::parse("0000-01-01T00:00:00Z").is_some());
        assert_eq!(Timestamp::parse("-0001-12-31T23:59:00.000Z"), None);
        assert!(serde_json::from_value::<Timestamp>("yesterday".into()).is_err());
    }
}
