"""GPU catalog and precision table (``data/gpus.json``, ``data/precisions.json``).

Units: ``tflops`` dense TFLOP/s (1e12), ``memory_gb`` vendor GB (1e9 bytes) as labelled, ``memory_capacity_bytes``
bytes the memory model uses where a source states the capacity exactly (binary GiB / nvidia-smi MiB), ``mem_bw_tbps``
TB/s (1e12 B/s), ``scaleup_gbps`` unidirectional GB/s per GPU. Each value carries source tags.
"""

from __future__ import annotations

from functools import lru_cache

from pydantic import BaseModel, Field

from .errors import BadInputError
from .resources import load_json

GIB = 1024 ** 3
#: scale-out fallbacks for a GPU whose catalog entry has none: one 400 Gb/s NIC per GPU (50 GB/s) and
#: aiconfigurator's 10 us P2P latency (aiconfigurator_core 0.12.0 systems/h100_sxm.yaml, "nonofficial")
DEFAULT_SCALEOUT_GBPS = 50.0
DEFAULT_SCALEOUT_LATENCY_US = 10.0


class Price(BaseModel):
    low: float
    high: float
    tier: str
    src: str

    @property
    def mid(self) -> float:
        return (self.low + self.high) / 2


class Topology(BaseModel):
    """How a GPU's system joins GPUs: a scale-up domain (NVLink / XGMI / PCIe within a server) and the scale-out
    network between domains (one NIC per GPU, rail-aligned). Units: GPUs, bytes/s, seconds."""

    domain: int = Field(description="GPUs joined by the scale-up fabric (8 on an HGX board, 72 on GB200 NVL72)")
    node_gpus: int = Field(description="GPUs per server (a GB200 compute tray holds 4)")
    scaleup_bytes_per_s: float
    scaleout_bytes_per_s: float
    scaleout_latency_s: float
    scaleout: str
    link_bytes_per_s: float | None = Field(None, description="a fully connected mesh's per-peer link (XGMI: each GPU "
                                                             "wired to every other by its own link); None: a switched "
                                                             "fabric (NVLink/NVSwitch), any group at the full figure")

    def scaleup_bw(self, group: int) -> float:
        """Scale-up bytes/s one GPU moves in a collective over ``group`` GPUs of its domain: the full figure on a
        switched fabric; on a mesh only the links to the group's other ``group - 1`` GPUs carry it, so at most
        ``(group - 1)`` x the per-peer link (a pipeline hop between two GPUs: one link)."""
        if self.link_bytes_per_s is None:
            return self.scaleup_bytes_per_s
        return min(self.scaleup_bytes_per_s, max(1, group - 1) * self.link_bytes_per_s)

    def domains(self, gpus: int) -> int:
        """Scale-up domains a layout of ``gpus`` GPUs spans."""
        return max(1, -(-gpus // max(1, self.domain)))

    def nodes(self, gpus: int) -> int:
        """Servers (nodes) a layout of ``gpus`` GPUs spans."""
        return max(1, -(-gpus // max(1, self.node_gpus)))


class GPU(BaseModel):
    id: str
    aliases: list[str] = Field(default_factory=list)
    vendor: str
    name: str
    arch: str
    compute_capability: str | None
    tflops: dict[str, float]
    mamf_tflops: dict[str, float] = Field(default_factory=dict)
    memory_gb: float
    #: bytes of device memory as a source states them exactly (aiconfigurator's mem_capacity: 80 GiB for an "80 GB"
    #: H100); None: ``memory_gb`` x 1e9, which under-counts binary-sized HBM (the conservative reading)
    memory_capacity_bytes: float | None = None
    mem_bw_tbps: float
    sms: int
    l2_mb: float | None = None
    scaleup_gbps: float
    scaleup: str
    #: per-peer link of a fully connected scale-up mesh, GB/s unidirectional (MI300X XGMI: 7 x 64); None: switched
    scaleup_link_gbps: float | None = None
    node_gpus: int = 8
    #: GPUs joined by the scale-up fabric (default: the node)
    scaleup_domain: int | None = None
    #: scale-out NIC bandwidth per GPU, GB/s unidirectional, and its per-message latency, microseconds
    scaleout_gbps: float | None = None
    scaleout_latency_us: float | None = None
    scaleout: str | None = None
    tdp_w: float | None = None
    usd_per_hour: Price | None = None
    formats: list[str]
    notes: list[str] = Field(default_factory=list)
    src: dict[str, str] = Field(default_factory=dict)

    @property
    def memory_bytes(self) -> float:
        """Device memory in bytes: the sourced capacity where the catalog has one, else ``memory_gb`` x 1e9."""
        return self.memory_capacity_bytes if self.memory_capacity_bytes else self.memory_gb * 1e9

    @property
    def bw_bytes_per_s(self) -> float:
        return self.mem_bw_tbps * 1e12

    def peak_flops(self, dtype: str) -> float:
        """Dense peak FLOP/s for a tensor-core dtype (falls back to bf16)."""
        return self.tflops.get(dtype, self.tflops.get("bf16", 0.0)) * 1e12

    def topology(self) -> Topology:
        """The system's :class:`Topology` (catalog fields; a GPU without scale-out figures gets the fallbacks
        ``DEFAULT_SCALEOUT_GBPS`` / ``DEFAULT_SCALEOUT_LATENCY_US``, named in its ``scaleout`` text)."""
        known = self.scaleout_gbps is not None
        return Topology(domain=self.scaleup_domain or self.node_gpus, node_gpus=self.node_gpus,
                        scaleup_bytes_per_s=self.scaleup_gbps * 1e9,
                        scaleout_bytes_per_s=(self.scaleout_gbps if known else DEFAULT_SCALEOUT_GBPS) * 1e9,
                        scaleout_latency_s=(self.scaleout_latency_us if self.scaleout_latency_us is not None
                                            else DEFAULT_SCALEOUT_LATENCY_US) * 1e-6,
                        scaleout=self.scaleout or ("assumed" if not known else "?"),
                        link_bytes_per_s=self.scaleup_link_gbps * 1e9 if self.scaleup_link_gbps else None)

    def supports(self, fmt: str) -> bool:
        return fmt in self.formats


class Precision(BaseModel):
    id: str
    weight_bytes: float = Field(description="bytes per weight element, scales included")
    compute: str
    fallback: str
    native: list[str]
    min_cc: str
    native_cc: str = Field("", description="compute capability of native tensor-core kernels")
    label: str


#: unbounded (no argument): the parsed data/gpus.json, the size of the data file
@lru_cache(maxsize=None)
def catalog() -> dict[str, GPU]:
    return {g["id"]: GPU(**g) for g in load_json("gpus.json")["gpus"]}


def gpu_sources() -> dict[str, str]:
    return dict(load_json("gpus.json")["sources"])


def get_gpu(name: str) -> GPU:
    """Look a GPU up by id or alias, case-insensitively. Raises BadInputError naming the known ids."""
    key = name.strip().lower()
    for g in catalog().values():
        if key == g.id.lower() or key in (a.lower() for a in g.aliases):
            return g
    raise BadInputError(f"unknown GPU {name!r}; known: {', '.join(catalog())}")


def catalog_price(gpu: GPU) -> float | None:
    """The GPU's catalog price in $ per GPU-hour: the midpoint of its cited range (data/gpus.json), or None."""
    return gpu.usd_per_hour.mid if gpu.usd_per_hour else None


#: unbounded (no argument): the parsed data/precisions.json
@lru_cache(maxsize=None)
def precisions() -> dict[str, Precision]:
    return {k: Precision(id=k, **v) for k, v in load_json("precisions.json")["precisions"].items()}


def get_precision(name: str) -> Precision:
    """Look a weight precision up by id or alias. Raises BadInputError naming the known ids."""
    key = name.strip().lower()
    key = load_json("precisions.json")["aliases"].get(key, key)
    p = precisions().get(key)
    if p is None:
        raise BadInputError(f"unknown precision {name!r}; known: {', '.join(precisions())}")
    return p


def compute_dtype(prec: Precision, gpu: GPU) -> str:
    """Tensor-core dtype the GEMMs run at for a precision on a GPU (weight-only fallback otherwise)."""
    if any(gpu.supports(f) for f in prec.native):
        if prec.compute in gpu.tflops:
            return prec.compute
    return prec.fallback
