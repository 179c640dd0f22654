"""backend="cuda" (SPEC §6) on Numba's CUDA simulator: the plain Python run (the oracle),
the cpu backend and the cuda backend agree (differential.py: results, dtypes, arguments
afterwards, two calls per Function). The simulator runs ~10k thread-executions a second,
so arrays are tiny."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import autograph_lite as ag
from autograph_lite.backends import cuda, cuda_config, cuda_runtime
from corpus.kernels import collatz_steps
from differential import agree
from test_vectorized_map import isqrt, python_map

BOTH = ("cpu", "cuda")
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def chain(x, y, n):
    z = np.sin(x) * y + 2.5                       # float32 * float64 row -> float64
    w = (x * n).astype(np.int16) % 3 - n          # int broadcasting, weak literals
    s = np.sqrt(np.abs(z)) + np.exp(-x) * 0.5     # math that runs as math.* on a GPU
    return z, w, np.where(z > 0.5, s, -s), x * np.float32(2.0) > y, np.maximum(z, x)


def test_elementwise_chains_broadcast_and_keep_dtypes():
    x = np.linspace(-1.0, 1.0, 6, dtype=np.float32).reshape(2, 3)
    agree(chain, x, np.arange(3.0), np.int64(3), backends=BOTH)


def test_a_fused_chain_is_one_kernel():
    x = np.ones((2, 3))
    src = ag.defun(chain, backend="cuda").get_concrete_function(x, np.ones(3), 2).source
    kernel = src.split("def k_")[1]
    assert "np.sin(" in kernel and "* y[" in kernel  # sin, *, + in one kernel body


def siblings(x, y):
    a = x * 2.0 + y                    # y: a row, broadcast
    b = a - x                          # reads a (kept in a register, not read back)
    return a, b, np.sqrt(np.abs(b)) * a


def newton_steps(a):
    x = a.copy()
    delta = np.ones_like(a)
    while np.max(np.abs(delta)) > 1e-10:
        delta = (x * x - a) / (2.0 * x)
        x = x - delta
    return x, delta


def test_elementwise_values_of_one_shape_are_one_kernel_with_an_output_each():
    x = np.linspace(-1.0, 1.0, 6).reshape(2, 3)
    f = ag.defun(siblings, backend="cuda")
    agree(siblings, x, np.arange(3.0), functions={"cpu": ag.defun(siblings), "cuda": f})
    src = f.get_concrete_function(x, np.arange(3.0)).source
    assert src.count("@cuda.jit") == 1, src
    kernel = src.split("@cuda.jit")[1]
    assert kernel.count("] = ") == 3 and "e_" in kernel  # three stores, a kept in a register


def test_a_loop_body_of_one_shape_is_one_kernel_that_allocates_nothing():
    f = ag.defun(newton_steps, backend="cuda")
    agree(newton_steps, calls=[(np.linspace(1.0, 9.0, 7),), (np.linspace(0.5, 3.0, 5),)],
          functions={"cpu": ag.defun(newton_steps), "cuda": f}, rtol=1e-12)
    body = f.get_concrete_function(np.ones(7)).source.split("while True:")[1].split("break")[1]
    assert body.count("[crt.grid(") == 1, body     # d and x: one kernel launch
    assert "cuda.device_array" not in body, body   # into the old d's and x's buffers
    # relaxed sizes: not provably equal sizes, so two kernels, each into an old buffer
    # when the sizes match at run time
    body = f.get_concrete_function(ag.TensorSpec([None], ag.float64)).source.split(
        "while True:")[1].split("break")[1]
    assert body.count(" = v6 if v6.shape == (") == 1 and body.count(" = v7 if v7.shape") == 1


def shapes_read(x):
    y = np.ones_like(x) * len(x)          # np.ones_like: the dim of x
    return y + x.size, np.array(x.shape) + x.shape[-1], np.zeros(np.shape(x)[0])


def test_reading_a_shape_does_not_copy_the_device_array_to_the_host(monkeypatch):
    """dim/size/shape read the device array's own shape: the host fallback copied the
    whole array back first (a third of Newton's time on 10^7 values on an H200)."""
    x = np.arange(6.0).reshape(2, 3)
    f = ag.defun(shapes_read, backend="cuda")
    agree(shapes_read, calls=[(x,), (np.arange(4.0).reshape(4, 1),)],
          functions={"cpu": ag.defun(shapes_read), "cuda": f})
    src = f.get_concrete_function(x).source
    assert "# dim" not in src and "# size" not in src and "# shape" not in src, src
    copied, to_host = [], cuda_runtime.to_host
    monkeypatch.setattr(cuda_runtime, "to_host",
                        lambda v: copied.append(hasattr(v, "copy_to_host")) or to_host(v))
    f(np.ones((3, 2)))                    # a new signature: relaxed sizes
    assert sum(copied) == 3, copied       # the three results, nothing else


def draws(x, n):
    return (ag.random.uniform((n, 3), minval=-2.0, maxval=-1.0, dtype=ag.float64) + x,
            ag.random.normal((60,), mean=10.0, stddev=0.5), ag.random.normal(()),
            ag.random.uniform((3,), maxval=5.0, dtype=ag.int32))


def test_random_arrays_are_drawn_on_the_device():
    """Float arrays of ag.random come from a device generator (xoroshiro128+ written out in
    the kernel, seeded by ag.random.set_seed: reproducible, another stream than the cpu
    backend's); a scalar and an integer draw run on the host."""
    f = ag.defun(draws, backend="cuda")
    src = f.get_concrete_function(0.0, 40).source
    assert "def k_uniform(" in src and "def k_normal(" in src and "dm.cos(" in src
    assert src.count("# random_normal") == 1 and src.count("# random_uniform") == 1, src
    u, z, s, k = (r.numpy() for r in f(0.0, 40))
    assert (u.shape, u.dtype, z.shape, z.dtype, s.shape, k.dtype) == (
        (40, 3), np.float64, (60,), np.float32, (), np.int32)
    assert (u >= -2).all() and (u < -1).all() and abs(u.mean() + 1.5) < 0.15
    assert abs(z.mean() - 10.0) < 0.3 and 0.3 < z.std() < 0.7
    assert (k >= 0).all() and (k < 5).all()
    assert not np.array_equal(f(0.0, 40)[0].numpy(), u)   # fresh on every call
    ag.random.set_seed(7)
    first = [r.numpy() for r in f(1.0, 5)]
    ag.random.set_seed(7)
    for p, q in zip(first, f(1.0, 5)):
        np.testing.assert_array_equal(p, q.numpy())


def test_the_device_generator_is_xoroshiro128_plus():
    """The kernel's generator steps as numba.cuda.random's xoroshiro128+ (its uniform
    float64 from the same states, element for element)."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (its import under the simulator warns)
        import numba.cuda.random as reference
    ag.random.set_seed(3)
    states = cuda_runtime.rng_states().copy_to_host()
    n = states.shape[0]
    f = ag.defun(lambda: ag.random.uniform((n,), dtype=ag.float64), backend="cuda",
                 autograph=False)
    ag.random.set_seed(3)
    got = f().numpy()
    ref = np.zeros(n, reference.xoroshiro128p_dtype)
    ref["s0"], ref["s1"] = states[:, 0], states[:, 1]
    np.testing.assert_array_equal(
        got, [reference.xoroshiro128p_uniform_float64(ref, i) for i in range(n)])


REDUCTIONS = [np.sum, np.prod, np.mean, np.max, np.min, np.any, np.all]


@pytest.mark.parametrize("reduce", REDUCTIONS, ids=lambda f: f.__name__)
def test_reductions_full_and_over_axes(reduce):
    def f(x, m):
        y = x * 0.5 + 1.0  # fused into the reductions' kernels
        return (reduce(y), reduce(x, axis=0), reduce(y, axis=(0, 2), keepdims=True),
                reduce(m), reduce(m, axis=1))
    x = np.linspace(-2.0, 3.0, 24).reshape(2, 3, 4)
    agree(f, x, np.arange(-3, 9, dtype=np.int32).reshape(3, 4), backends=BOTH)


def test_max_and_min_keep_nans_and_refuse_empty_arrays():
    def f(x):
        return np.max(x), np.min(x, axis=0)
    x = np.arange(6.0, dtype=np.float32).reshape(3, 2)
    x[1, 0] = np.nan
    agree(f, x, backends=BOTH)
    agree(f, calls=[(x,), (np.zeros((0, 2), np.float32),)], backends=BOTH)


def test_full_reduction_over_several_blocks():
    """More elements than one block's threads: partials per block, then a final pass."""
    def f(x):
        return np.sum(x), np.max(x)
    x = np.arange(300, dtype=np.int64)
    agree(f, x, backends=BOTH)


def test_more_partials_than_the_final_pass_has_threads(monkeypatch):
    """The final pass is one block of at most TPB threads folding the partials in a loop:
    with 4 threads a block, 50 elements make 13 partials (real sizes would need 16,384
    elements, minutes on the simulator). Its kernel modules, whose text sizes their shared
    arrays by TPB, are its own: other tests never launch them with 128 threads, and
    numba-cuda's cache on disk never gives them to a process with 128 threads."""
    monkeypatch.setattr(cuda_runtime, "TPB", 4)
    monkeypatch.setattr(cuda_config, "TPB", 4)

    def f(x):
        return np.sum(x), np.max(x)
    agree(f, calls=[(np.arange(50, dtype=np.int64),), (np.arange(50.0)[::-1].copy(),)],
          backends=BOTH)


@pytest.mark.parametrize("shapes", [((2, 3), (3, 4)), ((5, 7), (7, 3)), ((17, 18), (18, 5))],
                         ids=["small", "non-square", "beyond-one-tile"])
def test_matmul(shapes):
    def f(a, b):
        return a @ b
    rng = np.random.default_rng(1)
    agree(f, rng.random(shapes[0]), rng.random(shapes[1]), backends=BOTH)


def test_matmul_of_mixed_integer_dtypes():
    def f(a, b):
        return a @ b
    agree(f, np.arange(6, dtype=np.int32).reshape(2, 3) - 2,
          np.arange(12, dtype=np.int8).reshape(3, 4), backends=BOTH)


def indexing(x, i, v):
    a = x[1:, ::2]
    b = x[i, None, -1]
    y = x.copy()
    y[0, 1:3] = 7.0
    y[i] = v
    y[:, 0] = x[:, 1] * 2.0
    z = x.reshape(-1).reshape((3, 4)).T
    e = np.expand_dims(x, 1)[:, :, 2:]
    return a, b, x[-1, 1], y, z, e, np.squeeze(e[:1, :, :1]), np.transpose(x)[::-1]


def test_getitem_setitem_reshape_transpose():
    agree(indexing, np.arange(12.0).reshape(4, 3), np.int64(2), np.arange(3.0) * 10,
          backends=BOTH)


def test_index_errors_are_numpys():
    def f(x, i):
        return x[i]
    agree(f, calls=[(np.arange(4.0), np.int64(1)), (np.arange(4.0), np.int64(9))],
          backends=BOTH)


def branch(x):
    if np.sum(x) > 0:
        y = x * 2.0
    else:
        y = -x
    return y


def test_staged_if_on_a_tensor_predicate():
    agree(branch, calls=[(np.arange(3.0),), (-np.arange(3.0),)], backends=BOTH)


def newton_sqrt(a):
    x = a.copy()
    while np.max(np.abs(x * x - a)) > 1e-9:
        x = 0.5 * (x + a / x)
    return x


def test_staged_while_loops():
    agree(newton_sqrt, np.linspace(1.0, 8.0, 8), backends=BOTH)
    # a scalar's Collatz steps: a staged while in a staged for
    agree(collatz_steps, calls=[(np.array([27, 6]),), (np.array([1, 97]),)], backends=BOTH)


def scalar_steps(n, x, tol):
    """Scalar loops: Collatz steps of n, a series to tolerance with an inner counted loop
    and a branch, and a count with Python numbers."""
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    s, k, term = np.float64(0.0), 1, x
    while abs(term) > tol:
        s += term
        k += 1
        for _ in range(2):
            term = term * x / (2 * k) if term > 0 else term * x / k
    halvings = 0
    y = float(steps)
    while y > 1.0:
        y = y / 2.0
        halvings += 1
    return steps, s, k, halvings


def agreed_source(fn, calls):
    """``agree`` of ``fn`` on cpu and cuda over ``calls``; the cuda module of the first."""
    f = ag.defun(fn, backend="cuda")
    agree(fn, calls=calls, functions={"cpu": ag.defun(fn), "cuda": f})
    return f.get_concrete_function(*calls[0]).source


def test_a_scalar_loop_is_one_kernel_of_one_thread():
    """A staged while whose loop variables are all scalars runs as one kernel of one thread
    (the host would run each scalar op of each trip as a host step); results as Python's."""
    src = agreed_source(scalar_steps, [(np.int64(27), np.float64(1.5), 1e-12),
                                       (np.int64(1), np.float64(-0.5), 1e-9)])
    driver = src.split("def make")[1]
    assert src.count("def k_loop") == 3 and "while" not in driver, src
    assert driver.count("[1, 1](") == 3, driver


def find_first(x, t):
    i = 0
    while i < x.shape[0] and x[i] < t:     # a checked index: the loop runs on the host
        i += 1
    return i


def test_a_scalar_loop_that_may_raise_runs_on_the_host():
    driver = agreed_source(find_first, [(np.arange(6.0), 3.5), (np.arange(3.0), 10.0)]
                           ).split("def make")[1]
    assert "while True:" in driver and "k_loop" not in driver, driver


def fill(out, x):
    out[0] = 1.0
    out[1:] = out[1:] * 2.0 + x[1:]
    return np.sum(out)


def test_a_function_writing_into_its_argument():
    agree(fill, np.arange(4.0), np.ones(4), backends=BOTH)


def fill_in_a_loop(n, start):
    out = np.zeros(n)
    first = out
    i = 0
    while i < n:
        out[i] = start + i * 2.0
        i += 1
    return out, first


def step_rows(x, k):
    y = x.reshape(2, 3)
    for i in range(k):              # a staged loop: its variable's entry copy keeps x
        y[0] = y[1] + 1.0           # the value is read before the write (no overlap)
        y[1] = y.reshape(-1)[:3]    # a value computed from a view of the target
    return x, y


def reverse_rows(x, k):
    y = x * 1.0
    for i in range(k):
        y[::-1] = y                 # in place, from a copy of the value (it is the target)
        y[0] = y[0] + i
    return y


def test_updates_are_in_place_where_the_ownership_analysis_allows():
    driver = agreed_source(fill_in_a_loop, [(np.int64(5), 1.5), (np.int64(0), 2.0)]
                           ).split("def make")[1]
    loop = driver.split("while True:")[1]
    assert "k_" in loop and "crt.copy(" not in loop    # each out[i] = v writes in place
    agree(step_rows, np.arange(6.0), np.int64(3), backends=BOTH)
    agree(reverse_rows, np.arange(5.0), np.int64(3), backends=BOTH)
    src = ag.defun(reverse_rows, backend="cuda").get_concrete_function(
        np.arange(5.0), np.int64(3)).source
    assert "value = crt.copy(" in src
    agree(fill, np.arange(4.0), np.ones(4), backends=BOTH)


def with_callback(x):
    y = ag.py_func(lambda a: np.sort(a)[::-1].copy(), [x * 2.0], ag.float64)
    return y + 1.0


def test_py_func_runs_on_the_host():
    agree(with_callback, np.array([3.0, 1.0, 2.0]), backends=BOTH)


def checked(x):
    print("x is", x)
    assert np.all(x > 0), "x must be positive"
    return x * 2.0


def test_print_and_a_staged_assert_run_on_the_host():
    agree(checked, calls=[(np.arange(1.0, 4.0),), (np.arange(-1.0, 2.0),)], backends=BOTH)


def test_kernels_are_generated_once_per_signature(monkeypatch):
    made = []

    def counting(graph, name=None):
        made.append(graph)
        return generate(graph, name)
    generate = cuda.generate
    monkeypatch.setattr(cuda, "generate", counting)
    f = ag.defun(branch, backend="cuda")
    x = np.arange(3.0)
    first, second = f(x).numpy(), f(x + 1.0).numpy()
    assert len(made) == 1 and f.tracing_count == 1
    np.testing.assert_array_equal(second, branch(x + 1.0))
    assert first.tolist() == [0.0, 2.0, 4.0]
    source = f.get_concrete_function(x).source
    assert cuda.load(source) is cuda.load(source)  # one module per source text


def test_kernel_modules_are_files_of_the_kernel_cache(tmp_path, monkeypatch):
    """A cuda module is a file in the kernel cache folder, imported from there (as the cpu
    backend's), and its kernels are @cuda.jit(cache=True): on a GPU numba-cuda keeps their
    compiled code beside it for the next process. Without a usable folder it runs from
    memory."""
    from autograph_lite.backends import cache
    monkeypatch.setenv("AUTOGRAPH_LITE_CACHE_DIR", str(tmp_path / "kernels"))
    monkeypatch.setattr(cache, "_MEMORY", {})
    x = np.arange(3.0)
    f = ag.defun(branch, backend="cuda")
    np.testing.assert_array_equal(f(x).numpy(), branch(x))
    source = f.get_concrete_function(x).source
    path = tmp_path / "kernels" / f"ag_{cache.source_key(source)}.py"
    assert path.read_text() == source and "@cuda.jit(cache=True)" in source
    assert cuda.load(source)["__file__"] == str(path)
    stamp = path.stat().st_mtime_ns
    monkeypatch.setattr(cache, "_MEMORY", {})          # (as a new process)
    g = ag.defun(branch, backend="cuda")
    np.testing.assert_array_equal(g(x + 1.0).numpy(), branch(x + 1.0))
    assert path.stat().st_mtime_ns == stamp            # the same file, not written again
    monkeypatch.setenv("AUTOGRAPH_LITE_CACHE_DIR", "off")
    monkeypatch.setattr(cache, "_MEMORY", {})
    h = ag.defun(branch, backend="cuda")
    np.testing.assert_array_equal(h(x).numpy(), branch(x))
    assert "__file__" not in cuda.load(source)


def test_without_a_gpu_or_the_simulator_the_error_says_how_to_enable_it():
    code = textwrap.dedent("""
        import numpy as np
        import autograph_lite as ag
        f = ag.defun(lambda x: x + 1.0, backend="cuda")
        try:
            f(np.ones(2))
        except RuntimeError as e:
            print("ERROR:", e)
    """)
    # NUMBA_DISABLE_CUDA hides a GPU where there is one (the driver then refuses to start)
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_ENABLE_CUDASIM"}
    env["NUMBA_DISABLE_CUDA"] = "1"
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=root, capture_output=True,
                         text=True, timeout=120)
    assert "ERROR: backend='cuda': no CUDA GPU or driver was found" in out.stdout, out
    assert "NUMBA_ENABLE_CUDASIM=1" in out.stdout and "backend='cpu'" in out.stdout


def placed(x, y):
    a = x * y + 1.0
    with ag.device("cpu"):
        b = np.tanh(a) * 2.0       # placed on the host: its own host step
    with ag.device("cuda"):
        c = b - x
    return c.sum(), a


def test_cpu_placed_ops_run_on_the_host():
    x, y = np.linspace(0.0, 1.0, 6).reshape(2, 3), np.arange(3.0)
    agree(placed, x, y, backends=BOTH)
    src = ag.defun(placed, backend="cuda").get_concrete_function(x, y).source
    assert "# tanh" in src and "# multiply" in src   # the two cpu-placed ops, host calls
    assert "# subtract" not in src and "# add" not in src


def isqrt_map(x):
    return ag.vectorized_map(isqrt, x)


def test_vectorized_map_is_one_kernel_a_thread_per_element():
    ints = np.array([0, 1, 2, 15, 16, 17, 99, 10**6])
    agree(isqrt_map, ints, oracle=lambda x: python_map(isqrt, x), backends=BOTH, exact=True)
    src = ag.defun(isqrt_map, backend="cuda").get_concrete_function(ints).source
    assert src.count("def k_map(") == 1 and "HOST[" not in src
    eager = ag.vectorized_map(isqrt, ints[:3], backend="cuda")
    assert isinstance(eager, ag.Tensor) and eager.dtype == np.int64
    np.testing.assert_array_equal(eager.numpy(), [0, 1, 1])


def row_energies(x):
    return ag.vectorized_map(lambda row: np.sum(row * row) + row.mean(), x)


def test_a_float32_row_sum_in_a_map_stays_one_device_kernel():
    """(a float32 sum on cpu is NumPy's pairwise order through a cpu_runtime helper, which
    a kernel cannot call: in a map body on cuda it is the loop, as the device's reductions)"""
    x = np.linspace(-1.0, 1.0, 12, dtype=np.float32).reshape(4, 3)
    src = ag.defun(row_energies, backend="cuda").get_concrete_function(x).source
    assert src.count("def k_map(") == 1 and "HOST[" not in src, src
    agree(row_energies, x, backends=BOTH, rtol=1e-6)


def collatz_one(v):
    steps = 0
    while v != 1:
        v = v // 2 if v % 2 == 0 else 3 * v + 1
        steps += 1
    return steps


def collatz_map(x):
    return ag.vectorized_map(collatz_one, x)


def test_a_counted_loop_in_a_map_stays_one_device_kernel():
    """`steps += 1` of a Python int is checked for int64 overflow unless the graph proves
    it cannot overflow (python_numbers.py, ir/bounds.py); a check raises, which device code
    cannot, so the proof is what keeps the map (bench_gpu's collatz) on the device."""
    xs = np.array([27, 6, 1, 97])
    agree(collatz_map, xs, oracle=lambda x: python_map(collatz_one, x), backends=BOTH,
          exact=True)
    src = ag.defun(collatz_map, backend="cuda").get_concrete_function(xs).source
    assert src.count("def k_map(") == 1 and "HOST[" not in src and "raise" not in src


def weighted_with(vmap):
    """Tuple elems (rows of a matrix, ints), tuple results, a branch per element, and
    outer values every element reads: a scalar argument and an array made on the device."""
    def weighted(x, k, w, c):
        scale = w * 2.0

        def one(p):
            row, j = p
            s = np.sum(row * scale)
            if s > c:
                return s - c, j * 2
            return -s, j
        return vmap(one, (x, k))
    return weighted


def test_vectorized_map_of_tuples_with_outer_values():
    x = np.linspace(-1.0, 2.0, 12).reshape(4, 3)
    agree(weighted_with(ag.vectorized_map), x, np.arange(4), np.ones(3), 0.5,
          oracle=weighted_with(python_map), backends=BOTH)
    src = ag.defun(weighted_with(ag.vectorized_map), backend="cuda").get_concrete_function(
        x, np.arange(4), np.ones(3), 0.5).source
    assert "def k_map(" in src and "# vectorized_map" not in src


def test_vectorized_map_of_no_elements_and_of_different_lengths():
    f = ag.defun(weighted_with(ag.vectorized_map), backend="cuda")
    s, j = f(np.zeros((0, 3)), np.zeros(0, np.int64), np.ones(3), 0.5)
    assert s.shape == (0,) and s.dtype == np.float64 and j.shape == (0,) and j.dtype == np.int64
    with pytest.raises(ValueError, match="elems\\[1\\] has 2 elements .* elems\\[0\\] has 4"):
        f(np.zeros((4, 3)), np.zeros(2, np.int64), np.ones(3), 0.5)


def normalized_with(vmap):
    """Element results of rank 1 and a checked index: no scalar device code, so the map
    runs on the host, reading an outer array the device computed."""
    def normalized(x, i):
        shift = np.mean(x, axis=0)
        return vmap(lambda r: r / np.sum(r) + shift[i], x)
    return normalized


def test_vectorized_map_that_is_not_device_code_runs_on_the_host():
    x = np.arange(1.0, 13.0).reshape(4, 3)
    agree(normalized_with(ag.vectorized_map), calls=[(x, 1), (x[:2], 2), (x, 5)],
          oracle=normalized_with(python_map), backends=BOTH)
    src = ag.defun(normalized_with(ag.vectorized_map), backend="cuda").get_concrete_function(
        x, 1).source
    assert "def k_map(" not in src and "# vectorized_map" in src
