"""Environment names that programs outside the workspace read: the launcher, the CUDA driver,
PyTorch, NCCL, Transformer Engine, OpenMP, Hugging Face, W&B, SwanLab, Slurm, MPI, Python...

The contract index sees only the workspace's Python code, so a name no workspace file reads is
not stale when one of these reads it (PG012 `unread-var` never reports them). Each row says who
reads the name and why a training launcher sets it. A row matches one name exactly, or every
name that starts with its prefix.
"""

from __future__ import annotations

from ..records import TextEnum, record


class Match(TextEnum):
    """How a row's pattern matches a name."""

    NAME = "name"  # the name itself
    PREFIX = "prefix"  # every name starting with the pattern


@record(frozen=True)
class LibraryName:
    """One row: a name or prefix, the program that reads it and why a launcher sets it."""

    pattern: str
    match: Match
    library: str
    why_en: str
    why_zh: str
    # the value is one list of options joined by this (PYTORCH_CUDA_ALLOC_CONF: ","): two
    # assignments in a row keep only the second's options, joining them keeps both
    list_separator: str = ""

    def matches(self, name: str) -> bool:
        """Whether this row covers name."""
        return name == self.pattern if self.match is Match.NAME else name.startswith(self.pattern)

    @property
    def shown(self) -> str:
        """The pattern as the table prints it (`NCCL_*` for a prefix)."""
        return self.pattern if self.match is Match.NAME else self.pattern + "*"


_N, _P = Match.NAME, Match.PREFIX

LIBRARY_NAMES: tuple = (
    # NVIDIA's stack
    LibraryName("CUDA_", _P, "CUDA runtime and driver",
                "device selection and ordering (CUDA_VISIBLE_DEVICES), how many hardware queues a "
                "process opens (CUDA_DEVICE_MAX_CONNECTIONS, which Megatron's overlap needs at 1), "
                "synchronous kernel launches for debugging (CUDA_LAUNCH_BLOCKING)",
                "选择与排序 GPU（CUDA_VISIBLE_DEVICES）、每个进程打开的硬件队列数（CUDA_DEVICE_MAX_CONNECTIONS，"
                "Megatron 的通信重叠要求为 1）、调试时同步启动 kernel（CUDA_LAUNCH_BLOCKING）"),
    LibraryName("NCCL_", _P, "NCCL", "collective communication: debug output, network interface, "
                "algorithms, timeouts, InfiniBand settings",
                "集合通信：调试输出、网卡选择、算法、超时、InfiniBand 参数"),
    LibraryName("NVTE_", _P, "Transformer Engine",
                "which attention kernels and fusions Transformer Engine may use "
                "(NVTE_FLASH_ATTN, NVTE_FUSED_ATTN...)",
                "Transformer Engine 可用的注意力 kernel 与融合算子（NVTE_FLASH_ATTN、NVTE_FUSED_ATTN 等）"),
    LibraryName("NVIDIA_", _P, "NVIDIA container runtime",
                "which GPUs and driver features a container gets (NVIDIA_VISIBLE_DEVICES)",
                "容器能用到哪些 GPU 与驱动功能（NVIDIA_VISIBLE_DEVICES）"),
    LibraryName("CUBLAS_", _P, "cuBLAS", "workspace size for deterministic matrix products",
                "确定性矩阵乘所需的工作区大小"),
    LibraryName("CUDNN_", _P, "cuDNN", "logging and algorithm choice of the convolution library",
                "卷积库的日志与算法选择"),
    # PyTorch and its compilers
    LibraryName("PYTORCH_CUDA_ALLOC_CONF", _N, "PyTorch",
                "the caching allocator's options, one comma-separated list of key:value pairs "
                "(max_split_size_mb, garbage_collection_threshold, expandable_segments)",
                "缓存分配器的选项，是一个逗号分隔的 key:value 列表（max_split_size_mb、"
                "garbage_collection_threshold、expandable_segments）", list_separator=","),
    LibraryName("PYTORCH_HIP_ALLOC_CONF", _N, "PyTorch (ROCm)",
                "the ROCm build's allocator options, the same comma-separated list",
                "ROCm 版本的分配器选项，同样是逗号分隔的列表", list_separator=","),
    LibraryName("PYTORCH_", _P, "PyTorch", "allocator, NVML and debugging switches of PyTorch itself",
                "PyTorch 自身的分配器、NVML 与调试开关"),
    LibraryName("TORCH_", _P, "PyTorch", "distributed debugging, NCCL watchdog and async error "
                "handling, logging (TORCH_DISTRIBUTED_DEBUG, TORCH_NCCL_ASYNC_ERROR_HANDLING)",
                "分布式调试、NCCL 看门狗与异步错误处理、日志（TORCH_DISTRIBUTED_DEBUG、"
                "TORCH_NCCL_ASYNC_ERROR_HANDLING）"),
    LibraryName("TORCHINDUCTOR_", _P, "PyTorch Inductor", "the compiler's cache folder and tuning",
                "编译器的缓存目录与调优选项"),
    LibraryName("TORCHELASTIC_", _P, "torchrun", "elastic agent settings torchrun passes to workers",
                "torchrun 传给工作进程的弹性训练设置"),
    LibraryName("TRITON_", _P, "Triton", "kernel cache folder and compiler switches",
                "kernel 缓存目录与编译器开关"),
    LibraryName("GLOO_", _P, "Gloo", "the network interface of PyTorch's CPU collectives",
                "PyTorch CPU 集合通信使用的网卡"),
    LibraryName("MASTER_ADDR", _N, "torch.distributed", "the rendezvous host every rank connects to",
                "所有进程连接的汇合主机"),
    LibraryName("MASTER_PORT", _N, "torch.distributed", "the rendezvous port", "汇合端口"),
    LibraryName("WORLD_SIZE", _N, "torch.distributed", "how many processes take part", "参与训练的进程总数"),
    LibraryName("RANK", _N, "torch.distributed", "this process's global rank", "本进程的全局序号"),
    LibraryName("LOCAL_RANK", _N, "torch.distributed", "this process's rank on its node", "本进程在节点内的序号"),
    LibraryName("LOCAL_WORLD_SIZE", _N, "torchrun", "processes on this node", "本节点上的进程数"),
    LibraryName("NODE_RANK", _N, "torchrun, DeepSpeed", "this node's index in a multi-node job",
                "多机任务中本节点的序号"),
    LibraryName("GROUP_RANK", _N, "torchrun", "this worker group's index", "本工作组的序号"),
    LibraryName("XLA_", _P, "XLA (PyTorch/XLA, JAX)", "compiler flags and device settings",
                "编译器参数与设备设置"),
    # CPU threading
    LibraryName("OMP_", _P, "OpenMP", "CPU threads per process (OMP_NUM_THREADS) and their placement",
                "每个进程的 CPU 线程数（OMP_NUM_THREADS）及其绑定"),
    LibraryName("KMP_", _P, "Intel OpenMP", "thread affinity and blocking time of Intel's OpenMP",
                "Intel OpenMP 的线程亲和性与等待时间"),
    LibraryName("MKL_", _P, "Intel MKL", "threads of the math library", "数学库的线程数"),
    LibraryName("OPENBLAS_", _P, "OpenBLAS", "threads of the math library", "数学库的线程数"),
    # model hubs and tokenizers
    LibraryName("HF_", _P, "Hugging Face Hub, datasets", "cache folders, offline mode, the access token",
                "缓存目录、离线模式、访问令牌"),
    LibraryName("HUGGINGFACE_", _P, "Hugging Face Hub", "the older spellings of the hub's token and cache",
                "Hub 令牌与缓存的旧写法"),
    LibraryName("TRANSFORMERS_", _P, "transformers", "cache folder, offline mode, verbosity",
                "缓存目录、离线模式、日志级别"),
    LibraryName("TOKENIZERS_PARALLELISM", _N, "tokenizers",
                "whether the Rust tokenizer uses threads (turned off to silence the fork warning)",
                "Rust 分词器是否多线程（关掉它以消除 fork 警告）"),
    # experiment trackers
    LibraryName("WANDB_", _P, "Weights & Biases", "project, run name, mode (offline), API key",
                "项目、运行名、模式（离线）、API key"),
    LibraryName("SWANLAB_", _P, "SwanLab", "project, workspace, mode and API key of the tracker",
                "实验追踪的项目、工作区、模式与 API key"),
    # schedulers and MPI
    LibraryName("SLURM_", _P, "Slurm", "what the scheduler tells each task: job, node list, task ids",
                "调度器告诉每个任务的信息：作业、节点列表、任务序号"),
    LibraryName("OMPI_", _P, "Open MPI", "MPI settings and each rank's identity under mpirun",
                "mpirun 下的 MPI 参数与每个进程的身份"),
    LibraryName("PMI_", _P, "PMI (MPICH, Slurm)", "the process manager's rank and size",
                "进程管理器给出的序号与进程数"),
    LibraryName("PMIX_", _P, "PMIx", "the process manager's rank and namespace", "进程管理器给出的序号与命名空间"),
    LibraryName("MV2_", _P, "MVAPICH2", "MPI settings of MVAPICH2", "MVAPICH2 的 MPI 参数"),
    LibraryName("UCX_", _P, "UCX", "transports and network devices of the communication layer",
                "通信层的传输方式与网络设备"),
    LibraryName("DS_", _P, "DeepSpeed", "DeepSpeed's build and accelerator switches", "DeepSpeed 的编译与加速器开关"),
    LibraryName("ACCELERATE_", _P, "accelerate", "what `accelerate launch` passes to each process",
                "`accelerate launch` 传给每个进程的设置"),
    # the interpreter, the loader and the shell
    LibraryName("PYTHON", _P, "Python", "module search path, byte-code files, unbuffered output, hash seed "
                "(PYTHONPATH, PYTHONUNBUFFERED...)",
                "模块搜索路径、字节码文件、无缓冲输出、哈希种子（PYTHONPATH、PYTHONUNBUFFERED 等）"),
    LibraryName("LD_", _P, "the dynamic loader", "where shared libraries are found, and preloads "
                "(LD_LIBRARY_PATH, LD_PRELOAD)",
                "共享库的查找路径与预加载（LD_LIBRARY_PATH、LD_PRELOAD）"),
    LibraryName("MALLOC_", _P, "glibc malloc", "arena and trimming settings of the C allocator",
                "C 分配器的 arena 与回收设置"),
    LibraryName("PATH", _N, "every program", "where commands are found", "命令的查找路径"),
    LibraryName("HOME", _N, "every program", "the user's home: caches and configuration live there",
                "用户主目录：缓存与配置都在其中"),
    LibraryName("USER", _N, "every program", "the user's name", "用户名"),
    LibraryName("TMPDIR", _N, "every program", "where temporary files go", "临时文件目录"),
    LibraryName("LANG", _N, "every program", "the locale", "区域设置"),
    LibraryName("LC_", _P, "every program", "the locale, category by category", "按类别的区域设置"),
    LibraryName("TZ", _N, "every program", "the time zone of log timestamps", "日志时间戳的时区"),
    LibraryName("TERM", _N, "every program", "the terminal type", "终端类型"),
    LibraryName("SHELL", _N, "every program", "the user's shell", "用户的 shell"),
    LibraryName("NO_COLOR", _N, "many command-line tools", "turns coloured output off", "关闭彩色输出"),
    LibraryName("http_proxy", _N, "HTTP clients", "the proxy downloads go through", "下载所经的代理"),
    LibraryName("https_proxy", _N, "HTTP clients", "the proxy downloads go through", "下载所经的代理"),
    LibraryName("no_proxy", _N, "HTTP clients", "hosts reached without the proxy", "不经代理访问的主机"),
    LibraryName("HTTP_PROXY", _N, "HTTP clients", "the proxy downloads go through", "下载所经的代理"),
    LibraryName("HTTPS_PROXY", _N, "HTTP clients", "the proxy downloads go through", "下载所经的代理"),
    LibraryName("NO_PROXY", _N, "HTTP clients", "hosts reached without the proxy", "不经代理访问的主机"),
)

_EXACT = {row.pattern: row for row in LIBRARY_NAMES if row.match is Match.NAME}
# longest prefix first: PYTORCH_CUDA_ALLOC_CONF's row is exact, TORCHINDUCTOR_ is tried before TORCH_
_PREFIXES = sorted((row for row in LIBRARY_NAMES if row.match is Match.PREFIX),
                   key=lambda row: -len(row.pattern))


def library_of(name: str) -> LibraryName | None:
    """The row of a name some program outside the workspace reads, or None."""
    row = _EXACT.get(name)
    if row is not None:
        return row
    for row in _PREFIXES:
        if name.startswith(row.pattern):
            return row
    return None


def table(lang: str) -> str:
    """The rows as a Markdown table in English or Chinese (the PG012 page shows it)."""
    zh = lang == "zh"
    head = "| 名称 | 读取者 | 启动脚本为何设置它 |" if zh else "| name | read by | why a launcher sets it |"
    out = [head, "|---|---|---|"]
    for row in LIBRARY_NAMES:
        out.append(f"| `{row.shown}` | {row.library} | {row.why_zh if zh else row.why_en} |")
    return "\n".join(out)
