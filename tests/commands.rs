//! The commands people copy: each engine's own command line, and every flag in it defined by that
//! engine's argument parser at the commit data/engine-flags.csv names (file and line), so a flag
//! cannot be printed unchecked.

use std::collections::HashSet;

use tokbound::catalog::catalog;
use tokbound::estimator::estimate;
use tokbound::report::commands::{commands, shell_word, Commands};
use tokbound::scenario::Scenario;

/// (engine, program, flag) for every flag the checked list holds, short and long forms.
fn checked() -> HashSet<(String, String, String)> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/engine-flags.csv")).unwrap();
    let (header, rows) = tokbound::catalog::csv::parse(&text).unwrap();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (engine, program, flag, long, file, line, commit) = (
        col("engine"),
        col("program"),
        col("flag"),
        col("long_form"),
        col("defined_in"),
        col("line"),
        col("commit"),
    );
    let mut out = HashSet::new();
    for (_, r) in rows {
        // Every row names the parser's file, its line and a full commit.
        assert!(!r[file].is_empty() && r[line].parse::<u32>().is_ok(), "{r:?}");
        assert!(r[commit].len() == 40 && r[commit].chars().all(|c| c.is_ascii_hexdigit()), "{r:?}");
        for f in [&r[flag], &r[long]] {
            out.insert((r[engine].to_string(), r[program].to_string(), f.to_string()));
        }
    }
    out
}

/// The words a POSIX shell splits `command` into.
fn shell_words(command: &str) -> Vec<String> {
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("printf '%s\\n' {command}"))
        .output()
        .unwrap();
    assert!(out.status.success(), "sh rejects: {command}");
    String::from_utf8(out.stdout).unwrap().lines().map(str::to_string).collect()
}

fn commands_of(query: &str) -> Commands {
    let (s, issues) = Scenario::from_query(query);
    assert!(issues.is_empty(), "{query}: {issues:?}");
    let inputs = s.resolve(catalog()).unwrap_or_else(|e| panic!("{query}: {e:?}"));
    commands(&s, catalog(), &inputs, &estimate(&inputs))
}

/// The program a command line runs, as the checked list names it, and its arguments (Ollama's
/// server settings, given as environment variables before it, are checked as its flags).
fn program_and_flags(words: &[String]) -> (String, Vec<String>) {
    let env: Vec<String> = words
        .iter()
        .take_while(|w| w.contains('=') && !w.starts_with('-'))
        .map(|w| w.split('=').next().unwrap().to_string())
        .collect();
    let rest = &words[env.len()..];
    let program = match (rest[0].as_str(), rest.get(1).map(String::as_str)) {
        ("llamafile", Some("--server")) => "llamafile --server".to_string(),
        ("ollama", Some("serve")) => "ollama serve (env)".to_string(),
        ("ollama", Some("run")) => "ollama run".to_string(),
        ("kt", Some("run")) => "kt run".to_string(),
        (p, _) => p.to_string(),
    };
    let flags = rest
        .iter()
        .skip(1)
        .filter(|w| w.starts_with('-') && w.parse::<f64>().is_err() && w.as_str() != "--server")
        .cloned()
        .chain(env)
        .collect();
    (program, flags)
}

const SCENARIOS: &[&str] = &[
    "hw=rtx-4090&model=qwen2.5-32b",
    "hw=rtx-4090&model=qwen2.5-32b&ctx=0",
    "hw=rtx-4090&model=llama-3.1-70b&cpu=ryzen-9-7950x&threads=16&kv=q8_0",
    "hw=rtx-4090&model=deepseek-r1&offload=experts&ram=768&ram_bw=614.4&cpu=epyc-9355&ctx=8192",
    "hw=rtx-4090&model=qwen3-30b-a3b&cpu_moe=20&ram_bw=100",
    "hw=rtx-4090&model=qwen2.5-32b&draft=qwen2.5-0.5b&split=2",
    "hw=rtx-3090&with=rtx-3060-12g&model=llama-3.1-70b&quant=iq2_xs&tensor_split=24,12",
    "hw=rtx-4090&model=llama-3.1-8b&batch=8",
    "hw=ddr5-5600-2ch&model=qwen2.5-32b&threads=8",
    "bw=1000&weights=19GB&ctx=0",
];

#[test]
fn every_printed_flag_is_defined_by_the_engines_own_parser() {
    let list = checked();
    let engines = ["llama.cpp", "ik_llama.cpp", "llamafile", "ollama", "ktransformers"];
    let mut seen = 0;
    for query in SCENARIOS {
        for engine in engines {
            let q = format!("{query}&engine={engine}");
            let (s, issues) = Scenario::from_query(&q);
            // ktransformers runs CUDA or the CPU only: other scenarios are refused, not printed.
            if !issues.is_empty() || s.resolve(catalog()).is_err() {
                continue;
            }
            let c = commands_of(&q);
            for line in [c.run.as_deref(), c.bench.as_deref()].into_iter().flatten() {
                let words = shell_words(line);
                // Each argument is one shell word: quoted back, the words give the line again.
                let again: Vec<String> = words.iter().map(|w| shell_word(w)).collect();
                assert_eq!(again.join(" "), line, "{q}");
                let (program, flags) = program_and_flags(&words);
                for f in flags {
                    assert!(
                        list.contains(&(engine.to_string(), program.clone(), f.clone())),
                        "{q}: {engine} {program} does not define {f}: {line}"
                    );
                    seen += 1;
                }
            }
        }
    }
    assert!(seen > 200, "{seen} flags checked");
}

#[test]
fn each_engine_prints_its_own_command_line() {
    let q = "hw=rtx-4090&model=qwen3-30b-a3b&offload=experts&ctx=4096&draft=qwen3-0.6b";
    let llama = commands_of(&format!("{q}&engine=llama.cpp"));
    assert!(llama.run.as_deref().unwrap().starts_with("llama-server "));
    assert!(llama
        .run
        .as_deref()
        .unwrap()
        .contains(" --spec-type draft-simple --spec-draft-n-max 4"));
    assert!(llama.bench.as_deref().unwrap().contains(" -d 4096 "));
    // ik_llama.cpp: no -d in its llama-bench; generation after a 4096-token prompt with -gp.
    let ik = commands_of(&format!("{q}&engine=ik_llama.cpp"));
    let bench = ik.bench.as_deref().unwrap();
    assert!(bench.contains(" -n 0 -gp 4096,128 ") && !bench.contains(" -d "), "{bench}");
    assert!(ik.run.as_deref().unwrap().contains(" --spec-type draft:n_max=4"));
    // llamafile: flash attention is a switch, and it cannot keep experts in RAM: it says so.
    let lf = commands_of(&format!("{q}&engine=llamafile"));
    let run = lf.run.as_deref().unwrap();
    assert!(
        run.starts_with("llamafile --server ") && run.ends_with(" -fa") && !run.contains("exps"),
        "{run}"
    );
    assert!(lf.note.contains("cannot keep experts"));
    // Ollama: its context is its server's setting; ollama run --verbose prints the eval rate.
    let ol = commands_of(&format!("{q}&engine=ollama"));
    assert!(
        ol.run.as_deref().unwrap().starts_with("OLLAMA_CONTEXT_LENGTH=4224 "),
        "{:?}",
        ol.run
    );
    assert_eq!(ol.bench.as_deref(), Some("ollama run --verbose qwen3-30b-a3b"));
    // ktransformers: kt run, and no bench of its own.
    let kt = commands_of(&format!("{q}&engine=ktransformers"));
    assert!(kt.run.as_deref().unwrap().starts_with("kt run ") && kt.bench.is_none());
}

#[test]
fn commands_for_a_custom_model_name_a_placeholder_and_every_argument_is_one_shell_word() {
    // A custom model of a file size: no catalog model's file, a context that holds the depth plus
    // the tokens generated, and every layer with the output layer on the GPU.
    let c = commands_of("bw=1000&weights=19GB&ctx=0");
    let run = shell_words(c.run.as_deref().unwrap());
    assert_eq!(&run[..5], ["llama-server", "-m", "YOUR_MODEL.gguf", "-c", "128"], "{run:?}");
    assert!(c.note.contains("Replace YOUR_MODEL.gguf"));
    let bench = shell_words(c.bench.as_deref().unwrap());
    assert_eq!(&bench[..3], ["llama-bench", "-m", "YOUR_MODEL.gguf"]);
    assert!(bench.windows(2).any(|w| w == ["-d", "0"]), "{bench:?}");
    // An imported architecture: the same placeholder, -ngl one past its layers.
    let c = commands_of("hw=rtx-4090&hidden=4096&layers=32&heads=32&kv_heads=8&head_dim=128&vocab=128256&ffn=14336&params=8&ctx=1000");
    let run = shell_words(c.run.as_deref().unwrap());
    assert!(run.windows(2).any(|w| w == ["-m", "YOUR_MODEL.gguf"]), "{run:?}");
    assert!(
        run.windows(2).any(|w| w == ["-c", "1128"]) && run.windows(2).any(|w| w == ["-ngl", "33"]),
        "{run:?}"
    );
    // MLX's commands, with a quoted prompt, split into the words meant too.
    let c = commands_of("hw=m4-max-40c&model=qwen3-30b-a3b&quant=mlx-4bit");
    let bench = c.bench.as_deref().unwrap();
    let words = shell_words(bench);
    assert!(words.contains(&"Write a story.".to_string()), "{words:?}");
    let again: Vec<String> = words.iter().map(|w| shell_word(w)).collect();
    assert_eq!(again.join(" "), bench);
    // A dense model with experts in RAM asked for gets no expert flags.
    let c = commands_of("hw=rtx-3060-12g&model=llama-3.1-70b&offload=experts");
    assert!(!c.run.as_deref().unwrap().contains("exps"));
}
