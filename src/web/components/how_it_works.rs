//! A short account of the arithmetic, with the formulas.

use leptos::prelude::*;

/// The "how this works" section.
#[component]
pub fn HowItWorks() -> impl IntoView {
    view! {
        <section class="how" data-testid="how-it-works">
            <h2>"How this works"</h2>
            <p>
                "Generating one token for one stream reads essentially every weight once, and the chip mostly waits for memory. So "
                <code>"tokens/s ≤ bandwidth ÷ bytes read per token"</code>
                ", and the bytes are the weights at their quantization plus the KV cache."
            </p>
            <ul>
                <li><b>"Weights per token"</b>": Σ parameters × bits/weight ÷ 8 over the tensors a token passes through; the input embedding table is not read (one row is), a mixture of experts reads only its top-k routed experts."</li>
                <li><b>"KV cache per token"</b>": 2 × layers × KV heads × head dim × context × bytes per element; sliding-window layers stop at their window, MLA (DeepSeek) caches one latent of (kv_lora_rank + rope dims) per layer."</li>
                <li><b>"Spill"</b>": bytes that do not fit in VRAM are read from system RAM at its bandwidth: time per token = Σ bytes in each pool ÷ that pool's bandwidth."</li>
                <li><b>"Expected"</b>": a fixed per-token overhead plus bytes over bandwidth at fitted streaming efficiencies, per hardware class, from measured llama-bench runs."</li>
                <li><b>"Prefill"</b>": compute-bound: 2 × active parameters × prompt tokens ÷ (FP16 TFLOPS × utilization)."</li>
                <li><b>"Batching"</b>": one weight read serves B streams: step = max((weights + B × KV) ÷ bandwidth, 2 × active × B ÷ FLOPS)."</li>
                <li><b>"Speculative decoding"</b>": a draft proposes k tokens, one target pass verifies them; with acceptance α a step yields (1 − α^(k+1)) ÷ (1 − α) tokens."</li>
            </ul>
            <p>"Everything runs in your browser; no request leaves the page. The catalogs list a source for every number."</p>
        </section>
    }
}
