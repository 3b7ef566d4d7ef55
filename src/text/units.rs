//! Parsing of numbers and sizes as users type them in URLs, the CLI and the form.
//!
//! Sizes of weight files are decimal GB unless suffixed: `19`, `19GB`, `19 GB`, `4.58GiB`,
//! `19000MB`, `512MiB`, `1.2TB`, `20000000000B`.

/// A finite number, or a message saying why not.
pub fn number(text: &str) -> Result<f64, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err("is empty".into());
    }
    match crate::text::decimal::parse(t) {
        Some(v) if v.is_finite() => Ok(v),
        Some(_) => Err("is not a finite number".into()),
        None => Err("is not a number".into()),
    }
}

/// A number within `[min, max]`.
pub fn number_in(text: &str, min: f64, max: f64) -> Result<f64, String> {
    let v = number(text)?;
    if v < min || v > max {
        return Err(format!("is outside {}–{}", fmt_bound(min), fmt_bound(max)));
    }
    Ok(v)
}

/// A number at least `min` (> 0: vanishing values would make the arithmetic meaningless) and at
/// most `max`.
pub fn positive(text: &str, min: f64, max: f64) -> Result<f64, String> {
    let v = number(text)?;
    if v <= 0.0 {
        return Err("must be greater than 0".into());
    }
    if v < min {
        return Err(format!("is smaller than {min}, the least this field takes"));
    }
    if v > max {
        return Err(format!("is larger than {}, the most this field takes", fmt_bound(max)));
    }
    Ok(v)
}

/// A whole number within `[min, max]`.
pub fn whole(text: &str, min: u32, max: u32) -> Result<u32, String> {
    let v = number(text)?;
    if v.fract() != 0.0 {
        return Err("is not a whole number".into());
    }
    if v < min as f64 || v > max as f64 {
        return Err(format!("is outside {min}–{max}"));
    }
    Ok(v as u32)
}

/// A token count as people write context lengths: `4096`, `32k`, `128K`, `1M`, `1.5k`. `k` is
/// 1,024 and `M` is 1,048,576, as context windows are counted (a "32K" model holds 32,768 tokens).
pub fn tokens(text: &str, min: u32, max: u32) -> Result<u32, String> {
    let t = text.trim();
    let (num, scale) = match t.char_indices().last() {
        Some((i, 'k' | 'K')) => (&t[..i], 1024.0),
        Some((i, 'm' | 'M')) => (&t[..i], 1024.0 * 1024.0),
        _ => (t, 1.0),
    };
    let v = number(num).map_err(|e| {
        if e == "is not a number" {
            "is not a token count (4096, 32k, 128K or 1M)".to_string()
        } else {
            e
        }
    })? * scale;
    if v.fract() != 0.0 {
        return Err("is not a whole number of tokens".into());
    }
    if v < min as f64 || v > max as f64 {
        return Err(format!("is outside {min}–{max} tokens"));
    }
    Ok(v as u32)
}

fn fmt_bound(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

/// A size in bytes: a bare number is decimal GB; suffixes B, KB, MB, GB, TB, KiB, MiB, GiB, TiB.
pub fn size_bytes(text: &str) -> Result<f64, String> {
    let t = text.trim();
    let split = t.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(t.len());
    let (num, unit) = (t[..split].trim(), t[split..].trim());
    let scale = match unit.to_ascii_lowercase().as_str() {
        "" | "gb" | "g" => 1e9,
        "b" => 1.0,
        "kb" => 1e3,
        "mb" => 1e6,
        "tb" => 1e12,
        "kib" => 1024.0,
        "mib" => 1024.0 * 1024.0,
        "gib" => 1024.0 * 1024.0 * 1024.0,
        "tib" => 1024.0f64.powi(4),
        _ => return Err("has an unknown unit (use B, KB, MB, GB, TB, KiB, MiB, GiB or TiB)".into()),
    };
    let v = number(num)?;
    if v <= 0.0 {
        return Err("must be greater than 0".into());
    }
    let bytes = v * scale;
    if bytes < 1e3 {
        return Err("is smaller than 1 KB".into());
    }
    if bytes > 1e15 {
        return Err("is larger than 1 PB".into());
    }
    Ok(bytes)
}

/// Bytes as a short decimal figure: "19.0 GB", "70.3 KB".
pub fn fmt_bytes(b: f64) -> String {
    let (v, unit) = if b >= 1e12 {
        (b / 1e12, "TB")
    } else if b >= 1e9 {
        (b / 1e9, "GB")
    } else if b >= 1e6 {
        (b / 1e6, "MB")
    } else if b >= 1e3 {
        (b / 1e3, "KB")
    } else {
        (b, "B")
    };
    if v >= 100.0 {
        format!("{v:.0} {unit}")
    } else {
        format!("{v:.1} {unit}")
    }
}

/// A capacity (memory, what fits, what is stored) in binary GiB, as memory is sold: a "24 GB"
/// card holds 24 GiB. Bandwidths and bytes read per token stay decimal ([`fmt_bytes`]).
pub fn fmt_gib(b: f64) -> String {
    let gib = b / (1024.0 * 1024.0 * 1024.0);
    if gib >= 100.0 {
        format!("{gib:.0} GiB")
    } else if gib >= 0.1 || gib == 0.0 {
        format!("{gib:.1} GiB")
    } else {
        format!("{:.0} MiB", b / (1024.0 * 1024.0))
    }
}

/// tok/s with one decimal, more for tiny figures.
pub fn fmt_tok_s(v: f64) -> String {
    if v > 0.0 && v < 0.1 {
        format!("{v:.3}")
    } else {
        format!("{v:.1}")
    }
}

/// An expected figure and its band at one precision, so the three read alike: "47.4 tok/s
/// (40.3–52.1)", "0.065 tok/s (0.055–0.075)".
pub fn fmt_band(expected: f64, low: f64, high: f64) -> String {
    let (e, band) = fmt_band_parts(expected, low, high);
    format!("{e} tok/s {band}")
}

/// [`fmt_band`]'s figure and its "(low–high)", for a table cell.
pub fn fmt_band_parts(expected: f64, low: f64, high: f64) -> (String, String) {
    // Enough decimals that the smallest figure keeps two significant digits, at least one.
    let least = [expected, low, high].into_iter().filter(|v| *v > 0.0).fold(f64::INFINITY, f64::min);
    let decimals = if least.is_finite() && least < 1.0 {
        ((-least.log10()).ceil() as usize + 1).clamp(1, 6)
    } else {
        1
    };
    let f = |v: f64| format!("{v:.decimals$}");
    (f(expected), format!("({}–{})", f(low), f(high)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_with_and_without_units() {
        assert_eq!(size_bytes("19").unwrap(), 19e9);
        assert_eq!(size_bytes("19GB").unwrap(), 19e9);
        assert_eq!(size_bytes("4.58GiB").unwrap(), 4.58 * 1024.0 * 1024.0 * 1024.0);
        assert_eq!(size_bytes("512 MiB").unwrap(), 512.0 * 1024.0 * 1024.0);
        assert!(size_bytes("19 parsecs").unwrap_err().contains("unknown unit"));
        assert!(size_bytes("-3GB").is_err());
        assert!(size_bytes("NaN").is_err());
    }

    #[test]
    fn a_band_reads_at_one_precision() {
        assert_eq!(fmt_band(0.065, 0.055, 0.1), "0.065 tok/s (0.055–0.100)");
        assert_eq!(fmt_band(0.13, 0.1, 0.14), "0.13 tok/s (0.10–0.14)");
        assert_eq!(fmt_band(47.43, 40.3, 52.1), "47.4 tok/s (40.3–52.1)");
    }

    #[test]
    fn capacities_are_binary() {
        assert_eq!(fmt_gib(24.0 * 1024f64.powi(3)), "24.0 GiB");
        assert_eq!(fmt_gib(512.0 * 1024f64.powi(3)), "512 GiB");
    }

    #[test]
    fn token_counts_as_people_write_them() {
        assert_eq!(tokens("4096", 0, 100_000_000).unwrap(), 4096);
        assert_eq!(tokens("32k", 0, 100_000_000).unwrap(), 32_768);
        assert_eq!(tokens("128K", 0, 100_000_000).unwrap(), 131_072);
        assert_eq!(tokens("1M", 0, 100_000_000).unwrap(), 1_048_576);
        assert_eq!(tokens(" 1.5k ", 0, 100_000_000).unwrap(), 1536);
        assert!(tokens("1.1k", 0, 100_000_000).unwrap_err().contains("whole"));
        assert!(tokens("abc", 0, 100).unwrap_err().contains("32k"));
        assert!(tokens("k", 0, 100).is_err());
        assert!(tokens("200M", 0, 100_000_000).unwrap_err().contains("outside"));
    }

    #[test]
    fn numbers_reject_what_is_not_finite() {
        assert!(number("abc").unwrap_err().contains("not a number"));
        assert!(number("inf").is_err());
        assert!(number("").is_err());
        assert!(positive("0", 0.01, 10.0).is_err());
        assert!(positive("1e-310", 0.01, 10.0).is_err());
        assert!(positive("1e308", 0.01, 1e5).is_err());
        assert!(whole("2.5", 1, 8).is_err());
        assert_eq!(whole("4", 1, 8).unwrap(), 4);
    }
}
