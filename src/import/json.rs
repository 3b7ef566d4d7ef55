//! A small JSON reader (RFC 8259) for config.json imports.
//!
//! The importer needs objects, arrays, strings, booleans, null and whole numbers; a general JSON
//! library costs the page's WebAssembly several times what this does. Numbers keep their text, so
//! a count is read exactly (`as_u64` accepts only plain non-negative integers, as a config's
//! counts are written). Nesting deeper than [`MAX_DEPTH`] is refused rather than recursed into,
//! so hostile input cannot overflow the stack. In an object with a repeated key the last one
//! counts.

use std::fmt;

/// Deepest nesting of arrays and objects accepted.
pub const MAX_DEPTH: usize = 128;

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    /// The number as written.
    Number(String),
    String(String),
    Array(Vec<Value>),
    Object(Object),
}

/// An object's members in document order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Object(pub Vec<(String, Value)>);

impl Object {
    /// The value of `key` (the last one when the key repeats).
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

impl Value {
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    pub fn as_object(&self) -> Option<&Object> {
        match self {
            Value::Object(o) => Some(o),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// A non-negative integer written without fraction or exponent, within u64.
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Value::Number(n) if n.bytes().all(|b| b.is_ascii_digit()) => n.parse().ok(),
            _ => None,
        }
    }
}

/// Compact JSON, as the value would be written back.
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => f.write_str("null"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Number(n) => f.write_str(n),
            Value::String(s) => write_string(f, s),
            Value::Array(items) => {
                f.write_str("[")?;
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str("]")
            }
            Value::Object(o) => {
                f.write_str("{")?;
                for (i, (k, v)) in o.0.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write_string(f, k)?;
                    write!(f, ":{v}")?;
                }
                f.write_str("}")
            }
        }
    }
}

fn write_string(f: &mut fmt::Formatter<'_>, s: &str) -> fmt::Result {
    f.write_str("\"")?;
    for c in s.chars() {
        match c {
            '"' => f.write_str("\\\"")?,
            '\\' => f.write_str("\\\\")?,
            '\n' => f.write_str("\\n")?,
            '\r' => f.write_str("\\r")?,
            '\t' => f.write_str("\\t")?,
            '\u{8}' => f.write_str("\\b")?,
            '\u{c}' => f.write_str("\\f")?,
            c if (c as u32) < 0x20 => write!(f, "\\u{:04x}", c as u32)?,
            c => write!(f, "{c}")?,
        }
    }
    f.write_str("\"")
}

/// Parses a whole document. The error says what was expected and where (line and column).
pub fn parse(text: &str) -> Result<Value, String> {
    let mut p = Parser { s: text.as_bytes(), at: 0 };
    let v = p.value(0)?;
    p.space();
    if p.at < p.s.len() {
        return Err(p.error("trailing characters"));
    }
    Ok(v)
}

struct Parser<'a> {
    s: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn error(&self, what: &str) -> String {
        let before = &self.s[..self.at.min(self.s.len())];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let column = before.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
        format!("{what} at line {line} column {column}")
    }

    fn space(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.s.get(self.at) {
            self.at += 1;
        }
    }

    fn eat(&mut self, b: u8) -> bool {
        self.space();
        let hit = self.s.get(self.at) == Some(&b);
        if hit {
            self.at += 1;
        }
        hit
    }

    fn literal(&mut self, word: &str, v: Value) -> Result<Value, String> {
        if self.s[self.at..].starts_with(word.as_bytes()) {
            self.at += word.len();
            Ok(v)
        } else {
            Err(self.error("expected a value"))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, String> {
        self.space();
        match self.s.get(self.at) {
            None => Err(self.error("unexpected end of input")),
            Some(b'n') => self.literal("null", Value::Null),
            Some(b't') => self.literal("true", Value::Bool(true)),
            Some(b'f') => self.literal("false", Value::Bool(false)),
            Some(b'"') => self.string().map(Value::String),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(b'[' | b'{') if depth >= MAX_DEPTH => Err(self.error("nested too deeply")),
            Some(b'[') => {
                self.at += 1;
                let mut items = Vec::new();
                if !self.eat(b']') {
                    loop {
                        items.push(self.value(depth + 1)?);
                        if self.eat(b']') {
                            break;
                        }
                        if !self.eat(b',') {
                            return Err(self.error("expected `,` or `]`"));
                        }
                    }
                }
                Ok(Value::Array(items))
            }
            Some(b'{') => {
                self.at += 1;
                let mut members = Vec::new();
                if !self.eat(b'}') {
                    loop {
                        self.space();
                        if self.s.get(self.at) != Some(&b'"') {
                            return Err(self.error("expected a key string"));
                        }
                        let key = self.string()?;
                        if !self.eat(b':') {
                            return Err(self.error("expected `:`"));
                        }
                        members.push((key, self.value(depth + 1)?));
                        if self.eat(b'}') {
                            break;
                        }
                        if !self.eat(b',') {
                            return Err(self.error("expected `,` or `}`"));
                        }
                    }
                }
                Ok(Value::Object(Object(members)))
            }
            Some(_) => Err(self.error("expected a value")),
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.at;
        while self.s.get(self.at).is_some_and(u8::is_ascii_digit) {
            self.at += 1;
        }
        self.at - start
    }

    fn number(&mut self) -> Result<Value, String> {
        let start = self.at;
        if self.s[self.at] == b'-' {
            self.at += 1;
        }
        let int_start = self.at;
        if self.digits() == 0 || (self.s[int_start] == b'0' && self.at - int_start > 1) {
            return Err(self.error("invalid number"));
        }
        if self.s.get(self.at) == Some(&b'.') {
            self.at += 1;
            if self.digits() == 0 {
                return Err(self.error("invalid number"));
            }
        }
        if let Some(b'e' | b'E') = self.s.get(self.at) {
            self.at += 1;
            if let Some(b'+' | b'-') = self.s.get(self.at) {
                self.at += 1;
            }
            if self.digits() == 0 {
                return Err(self.error("invalid number"));
            }
        }
        // Only ASCII was consumed, so the slice is valid UTF-8.
        Ok(Value::Number(String::from_utf8_lossy(&self.s[start..self.at]).into_owned()))
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let h = self
            .s
            .get(self.at..self.at + 4)
            .ok_or_else(|| self.error("unexpected end of input"))?;
        let h = std::str::from_utf8(h).ok().and_then(|h| u32::from_str_radix(h, 16).ok());
        let h = h.ok_or_else(|| self.error("invalid \\u escape"))?;
        self.at += 4;
        Ok(h)
    }

    /// A string starting at the opening quote.
    fn string(&mut self) -> Result<String, String> {
        self.at += 1;
        let mut out = Vec::new();
        loop {
            let Some(&b) = self.s.get(self.at) else {
                return Err(self.error("unterminated string"));
            };
            self.at += 1;
            match b {
                b'"' => break,
                b'\\' => {
                    let Some(&e) = self.s.get(self.at) else {
                        return Err(self.error("unterminated string"));
                    };
                    self.at += 1;
                    let c = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let hi = self.hex4()?;
                            let code = if (0xD800..0xDC00).contains(&hi) && self.s[self.at..].starts_with(b"\\u") {
                                self.at += 2;
                                let lo = self.hex4()?;
                                if !(0xDC00..0xE000).contains(&lo) {
                                    return Err(self.error("invalid surrogate pair"));
                                }
                                0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                            } else {
                                hi
                            };
                            char::from_u32(code).ok_or_else(|| self.error("invalid \\u escape"))?
                        }
                        _ => return Err(self.error("invalid escape")),
                    };
                    out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                }
                0..=0x1f => return Err(self.error("control character in string")),
                b => out.push(b),
            }
        }
        // The input was a &str and escapes were encoded from chars, so this cannot fail.
        String::from_utf8(out).map_err(|_| self.error("invalid UTF-8"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_config_shaped_document() {
        let v = parse(r#" {"a": 32, "b": [true, false, null], "c": {"d": "x\"y\u00e9\ud83d\ude00"}, "a": 7, "e": -1.5e3} "#).unwrap();
        let o = v.as_object().unwrap();
        assert_eq!(o.get("a").and_then(Value::as_u64), Some(7), "the last repeated key counts");
        assert_eq!(
            o.get("b"),
            Some(&Value::Array(vec![Value::Bool(true), Value::Bool(false), Value::Null]))
        );
        assert_eq!(
            o.get("c")
                .and_then(Value::as_object)
                .and_then(|c| c.get("d"))
                .and_then(Value::as_str),
            Some("x\"yé😀")
        );
        assert_eq!(o.get("e").and_then(Value::as_u64), None);
        assert_eq!(o.get("e").map(ToString::to_string).as_deref(), Some("-1.5e3"));
        assert_eq!(Value::Number("32.0".into()).as_u64(), None, "a count is written as a whole number");
        assert_eq!(parse("\t0 \r\n"), Ok(Value::Number("0".into())), "whitespace around a value");
        assert_eq!(Value::Number("18446744073709551616".into()).as_u64(), None);
    }

    #[test]
    fn refuses_what_is_not_json_and_says_where() {
        for (text, want) in [
            ("", "unexpected end of input at line 1 column 1"),
            ("{\"a\": 1,\n \"b\" 2}", "expected `:` at line 2 column 6"),
            ("[1, 2", "expected `,` or `]` at line 1 column 6"),
            ("{a: 1}", "expected a key string"),
            ("01", "invalid number"),
            ("1.", "invalid number"),
            ("\"abc", "unterminated string"),
            ("\"\\x\"", "invalid escape"),
            ("\"\\ud800\\u0041\"", "invalid surrogate pair"),
            ("nul", "expected a value"),
            ("{} x", "trailing characters"),
            ("\"a\u{1}\"", "control character"),
        ] {
            let e = parse(text).unwrap_err();
            assert!(e.starts_with(want), "{text:?}: {e}");
        }
        let deep = "[".repeat(MAX_DEPTH + 1);
        assert!(parse(&deep).unwrap_err().starts_with("nested too deeply"));
        assert!(parse(&format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH))).is_ok());
    }

    #[test]
    fn writes_compact_json_back() {
        let text = r#"{"a":[1,-2.5e-3,"q\"\\\n\u0001"],"b":{},"c":[],"d":null,"e":true}"#;
        assert_eq!(parse(text).unwrap().to_string(), text);
    }
}
