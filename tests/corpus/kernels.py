"""A corpus of small scientific NumPy kernels, written as ordinary users write them.

Each function is plain NumPy (the oracle): it runs unchanged as Python, under
``ag.defun`` (tests/corpus/test_corpus.py checks the three ways agree) and, where Numba
compiles it, under ``numba.njit`` (benchmarks/bench_numpy.py). Nothing here is shaped to
suit the compiler: views written with ``+=``, arguments filled in place, Python loops over
array elements, ``while`` loops on array conditions, early ``break``/``return``, and
complex arithmetic (the fractals at the end).
"""
import math

import numpy as np


# --- stencils ---------------------------------------------------------------------------

def heat_1d(u, dt, steps):
    """Explicit 1-D heat equation in place: u's interior diffuses for `steps` steps."""
    for _ in range(steps):
        u[1:-1] += dt * (u[2:] - 2.0 * u[1:-1] + u[:-2])
    return u


def heat_2d(u, alpha, steps):
    """Explicit 2-D heat diffusion with a five-point Laplacian on a copy of `u`."""
    v = u.copy()
    for _ in range(steps):
        lap = (v[:-2, 1:-1] + v[2:, 1:-1] + v[1:-1, :-2] + v[1:-1, 2:]
               - 4.0 * v[1:-1, 1:-1])
        v[1:-1, 1:-1] += alpha * lap
    return v


def jacobi_poisson(f, out, h, iters):
    """Jacobi sweeps for the Poisson equation, written in place into `out`; the last
    sweep's largest change."""
    change = 0.0
    for _ in range(iters):
        new = 0.25 * (out[:-2, 1:-1] + out[2:, 1:-1] + out[1:-1, :-2] + out[1:-1, 2:]
                      - h * h * f[1:-1, 1:-1])
        change = np.max(np.abs(new - out[1:-1, 1:-1]))
        out[1:-1, 1:-1] = new
    return change


def laplacian_loops(u, h):
    """Five-point Laplacian of a 2-D field with explicit index loops (zero boundary)."""
    n, m = u.shape
    lap = np.zeros_like(u)
    for i in range(1, n - 1):
        for j in range(1, m - 1):
            lap[i, j] = (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1]
                         - 4.0 * u[i, j]) / (h * h)
    return lap


def wave_1d(u, u_prev, c, steps):
    """Leapfrog for the 1-D wave equation with fixed ends; the final displacement."""
    for _ in range(steps):
        u_next = np.zeros_like(u)
        u_next[1:-1] = (2.0 * u[1:-1] - u_prev[1:-1]
                        + c * c * (u[2:] - 2.0 * u[1:-1] + u[:-2]))
        u_prev = u
        u = u_next
    return u


# --- distances ---------------------------------------------------------------------------

def pairwise_distances(X):
    """Euclidean distance matrix of the rows of X, by broadcasting."""
    diff = X[:, np.newaxis, :] - X[np.newaxis, :, :]
    return np.sqrt(np.sum(diff ** 2, axis=-1))


def pairwise_distances_loops(X):
    """Euclidean distance matrix of the rows of X with explicit Python loops."""
    n = X.shape[0]
    D = np.zeros((n, n))
    for i in range(n):
        for j in range(i + 1, n):
            d = np.sqrt(np.sum((X[i] - X[j]) ** 2))
            D[i, j] = d
            D[j, i] = d
    return D


def nearest_neighbour(X, Y):
    """For each row of X, the index of and the distance to its nearest row of Y."""
    idx = np.zeros(X.shape[0], dtype=np.int64)
    dist = np.zeros(X.shape[0])
    for i in range(X.shape[0]):
        d = np.sqrt(((Y - X[i]) ** 2).sum(axis=1))
        idx[i] = np.argmin(d)
        dist[i] = d[idx[i]]
    return idx, dist


# --- statistics --------------------------------------------------------------------------

def summary_stats(x, w):
    """Mean, variance, standard deviation and weighted average of a sample."""
    m = np.mean(x)
    v = np.var(x)
    s = np.std(x)
    a = np.average(x, weights=w)
    return m, v, s, a


def zscore_columns(X):
    """Column-wise z-scores of a data matrix (population standard deviation)."""
    mu = X.mean(axis=0)
    sigma = X.std(axis=0)
    return (X - mu) / sigma


def var_std_methods(X):
    """Row variances, the sample standard deviation overall, and per-column spread."""
    row_var = X.var(axis=1)
    total_std = X.std(ddof=1)
    col_range = X.max(axis=0) - X.min(axis=0)
    return row_var, total_std, col_range / X.std(axis=0, keepdims=True)[0]


def moving_average(x, k):
    """Moving average over windows of `k` samples, by the cumulative-sum trick."""
    c = np.cumsum(x)
    c[k:] = c[k:] - c[:-k]
    return c[k - 1:] / k


def histogram_loop(x, lo, hi, nbins):
    """Counts of samples per equal-width bin on [lo, hi], with a Python loop."""
    counts = np.zeros(nbins, dtype=np.int64)
    width = (hi - lo) / nbins
    for v in x:
        b = int((v - lo) / width)
        if b == nbins and v == hi:
            b = nbins - 1
        if 0 <= b < nbins:
            counts[b] += 1
    return counts


def masked_mean(x, lo, hi):
    """Mean and count of the samples inside [lo, hi]; 0.0 when there are none."""
    mask = (x >= lo) & (x <= hi)
    n = np.sum(mask)
    if n == 0:
        return 0.0, n
    total = np.sum(np.where(mask, x, 0.0))
    return total / n, n


def clip_outliers(x, k):
    """Replace samples more than k standard deviations from the mean by the mean."""
    m = x.mean()
    s = x.std()
    outlier = np.abs(x - m) > k * s
    return np.where(outlier, m, x), np.count_nonzero(outlier)


# --- images --------------------------------------------------------------------------------

def box_blur_roll(img):
    """3x3 box blur with periodic boundaries, by summing shifted copies (np.roll)."""
    acc = np.zeros_like(img)
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            acc += np.roll(np.roll(img, dy, axis=0), dx, axis=1)
    return acc / 9.0


def box_blur_pad(img):
    """3x3 box blur with edge-replicated boundaries (np.pad, then nine slices)."""
    h, w = img.shape
    p = np.pad(img, 1, mode="edge")
    out = np.zeros_like(img)
    for dy in range(3):
        for dx in range(3):
            out += p[dy:dy + h, dx:dx + w]
    return out / 9.0


def sobel_edges(img, thresh):
    """Sobel gradient magnitude and a binary edge map above `thresh`."""
    p = np.pad(img, 1, mode="reflect")
    gx = (p[:-2, 2:] + 2.0 * p[1:-1, 2:] + p[2:, 2:]
          - p[:-2, :-2] - 2.0 * p[1:-1, :-2] - p[2:, :-2])
    gy = (p[2:, :-2] + 2.0 * p[2:, 1:-1] + p[2:, 2:]
          - p[:-2, :-2] - 2.0 * p[:-2, 1:-1] - p[:-2, 2:])
    mag = np.sqrt(gx ** 2 + gy ** 2)
    return mag, np.where(mag > thresh, 1, 0)


def threshold_image(img, t):
    """Pixels above t kept, the rest zeroed; the share of pixels kept."""
    mask = img > t
    kept = np.where(mask, img, 0.0)
    return kept, np.sum(mask) / img.size


def game_of_life(board, steps):
    """Conway's game of life on a torus (np.roll neighbour counts), `steps` generations."""
    for _ in range(steps):
        n = np.zeros_like(board)
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                if dy != 0 or dx != 0:
                    n += np.roll(np.roll(board, dy, axis=0), dx, axis=1)
        board = np.where((n == 3) | ((board == 1) & (n == 2)), 1, 0)
    return board


# --- grids ---------------------------------------------------------------------------------

def gaussian_bump_grid(x, y, sx, sy):
    """A 2-D Gaussian times a cosine evaluated on the grid of x and y (np.meshgrid);
    its sum and the location of its maximum."""
    X, Y = np.meshgrid(x, y)
    Z = np.exp(-(X ** 2 / (2 * sx ** 2) + Y ** 2 / (2 * sy ** 2))) * np.cos(X + Y)
    k = np.argmax(Z)
    return Z, Z.sum(), X.ravel()[k], Y.ravel()[k]


def trapezoid_2d(x, y):
    """Trapezoid-rule integral of sin(x) * cos(y) over the grid of x and y."""
    X, Y = np.meshgrid(x, y, indexing="ij")
    F = np.sin(X) * np.cos(Y)
    dx = np.diff(x)
    dy = np.diff(y)
    inner = 0.25 * (F[:-1, :-1] + F[1:, :-1] + F[:-1, 1:] + F[1:, 1:])
    return np.sum(inner * np.outer(dx, dy))


# --- root finding --------------------------------------------------------------------------

def newton_sqrt(a, tol):
    """Square roots of a vector by Newton's method, until every step is below tol."""
    x = a.copy()
    while True:
        dx = (x * x - a) / (2.0 * x)
        x = x - dx
        if np.max(np.abs(dx)) < tol:
            break
    return x


def bisection_cubic(lo, hi, tol):
    """Vectorised bisection for the roots of x**3 - 2x - 5 - k on brackets [lo, hi];
    the midpoints and the number of halvings."""
    k = np.arange(lo.shape[0]) * 0.5
    it = 0
    while np.max(hi - lo) > tol:
        mid = 0.5 * (lo + hi)
        f_mid = mid ** 3 - 2.0 * mid - 5.0 - k
        pos = f_mid > 0
        hi = np.where(pos, mid, hi)
        lo = np.where(pos, lo, mid)
        it += 1
    return 0.5 * (lo + hi), it


def fixed_point_cos(x0, tol, max_iter):
    """Fixed point of x = cos(x) from every start in x0; the iteration count."""
    x = x0
    n = 0
    err = tol + 1.0
    while err > tol and n < max_iter:
        x_new = np.cos(x)
        err = np.max(np.abs(x_new - x))
        x = x_new
        n += 1
    return x, n


# --- particles and ODEs --------------------------------------------------------------------

def nbody_step(pos, vel, mass, dt, steps):
    """Softened gravity, semi-implicit Euler: updates pos and vel in place."""
    n = pos.shape[0]
    for _ in range(steps):
        acc = np.zeros_like(pos)
        for i in range(n):
            for j in range(n):
                if i != j:
                    d = pos[j] - pos[i]
                    r2 = np.sum(d * d) + 0.01
                    acc[i] += mass[j] * d / (r2 * np.sqrt(r2))
        vel += dt * acc
        pos += dt * vel


def lorenz_euler(state, dt, steps):
    """The Lorenz system integrated with forward Euler; the trajectory."""
    sigma, rho, beta = 10.0, 28.0, 8.0 / 3.0
    x, y, z = state[0], state[1], state[2]
    traj = np.empty((steps, 3))
    for i in range(steps):
        dx = sigma * (y - x)
        dy = x * (rho - z) - y
        dz = x * y - beta * z
        x, y, z = x + dt * dx, y + dt * dy, z + dt * dz
        traj[i] = [x, y, z]
    return traj


def rk4_oscillator(y0, dt, steps, damping):
    """A damped oscillator y'' = -y - damping * y' integrated with classic RK4."""
    def f(y):
        return np.array([y[1], -y[0] - damping * y[1]])

    y = y0.copy()
    for _ in range(steps):
        k1 = f(y)
        k2 = f(y + 0.5 * dt * k1)
        k3 = f(y + 0.5 * dt * k2)
        k4 = f(y + dt * k3)
        y = y + dt / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4)
    return y


def logistic_map(r, x0, n):
    """The logistic map iterated n times for every growth rate in r, and the spread of
    the last ten iterates (0 for a fixed point)."""
    x = np.full_like(r, x0)
    lo = np.ones_like(r)
    hi = np.zeros_like(r)
    for i in range(n):
        x = r * x * (1.0 - x)
        if i >= n - 10:
            lo = np.minimum(lo, x)
            hi = np.maximum(hi, x)
    return x, hi - lo


# --- integer loops ---------------------------------------------------------------------------

def collatz_steps(ns):
    """The number of Collatz steps to reach 1 from each starting value."""
    out = np.zeros_like(ns)
    for i in range(len(ns)):
        n = ns[i]
        steps = 0
        while n != 1:
            if n % 2 == 0:
                n = n // 2
            else:
                n = 3 * n + 1
            steps += 1
        out[i] = steps
    return out


def gcd_pairs(a, b):
    """Elementwise greatest common divisors by Euclid's algorithm."""
    g = np.empty_like(a)
    for i in range(a.shape[0]):
        x, y = a[i], b[i]
        while y != 0:
            x, y = y, x % y
        g[i] = x
    return g


def sieve_primes(n):
    """The primes below n by the sieve of Eratosthenes."""
    is_prime = np.ones(n, dtype=np.bool_)
    is_prime[:2] = False
    i = 2
    while i * i < n:
        if is_prime[i]:
            is_prime[i * i::i] = False
        i += 1
    return np.nonzero(is_prime)[0]


# --- cumulative algorithms -------------------------------------------------------------------

def prefix_sum_loop(x):
    """Inclusive prefix sums with an explicit running total."""
    out = np.empty_like(x)
    total = 0.0
    for i in range(x.shape[0]):
        total += x[i]
        out[i] = total
    return out


def running_max_drawdown(prices):
    """Running maximum of a price series and the largest drawdown from it."""
    peak = np.empty_like(prices)
    worst = 0.0
    best = prices[0]
    for i in range(len(prices)):
        if prices[i] > best:
            best = prices[i]
        peak[i] = best
        worst = max(worst, (best - prices[i]) / best)
    return peak, worst


def cumulative_trapezoid(y, dx):
    """Cumulative trapezoid integral of samples y with spacing dx (starts at 0)."""
    out = np.zeros_like(y)
    for i in range(1, len(y)):
        out[i] = out[i - 1] + 0.5 * dx * (y[i] + y[i - 1])
    return out


# --- small matrix algorithms -----------------------------------------------------------------

def power_iteration(A, iters):
    """Dominant eigenvalue and eigenvector of A by power iteration."""
    v = np.ones(A.shape[0])
    v = v / np.linalg.norm(v)
    lam = 0.0
    for _ in range(iters):
        w = A @ v
        lam = v @ w
        v = w / np.linalg.norm(w)
    return lam, v


def gram_schmidt(A):
    """Orthonormal columns spanning A's columns, by classical Gram-Schmidt with @."""
    n, k = A.shape
    Q = np.zeros((n, k))
    for j in range(k):
        v = A[:, j].copy()
        for i in range(j):
            v -= (Q[:, i] @ A[:, j]) * Q[:, i]
        Q[:, j] = v / np.sqrt(v @ v)
    return Q


def matmul_loops(A, B):
    """Matrix product with three explicit loops (the textbook version)."""
    n, m = A.shape
    p = B.shape[1]
    C = np.zeros((n, p))
    for i in range(n):
        for j in range(p):
            s = 0.0
            for k in range(m):
                s += A[i, k] * B[k, j]
            C[i, j] = s
    return C


def lu_partial_pivot(A):
    """Doolittle LU with partial pivoting, rows swapped by a list index as textbooks write
    it (`A[[k, p]] = A[[p, k]]`), the permutation kept in an array made in the function."""
    A = A.copy()
    n = A.shape[0]
    perm = np.arange(n)
    for k in range(n - 1):
        p = k + np.argmax(np.abs(A[k:, k]))
        if p != k:
            A[[k, p]] = A[[p, k]]
            perm[[k, p]] = perm[[p, k]]
        for i in range(k + 1, n):
            A[i, k] /= A[k, k]
            A[i, k + 1:] -= A[i, k] * A[k, k + 1:]
    return A, perm


def log_binned_counts(x, lo, hi, nbins):
    """Counts of samples in geometric bins and the largest bin seen so far, in one table
    filled through its flat view."""
    edges = np.geomspace(lo, hi, nbins + 1)
    table = np.zeros((2, nbins), dtype=np.int64)
    for v in x:
        k = np.searchsorted(edges, v, side="right") - 1
        if 0 <= k < nbins:
            table.flat[k] += 1
            table.flat[nbins + k] = max(table.flat[nbins - 1 + k], k)
    return edges, table


# --- reshaping helpers: diff, tile, repeat ------------------------------------------------------

def upsample_hold(x, k):
    """Sample-and-hold upsampling by k (np.repeat), its first differences (np.diff)
    and a periodic ramp of the same length (np.tile)."""
    held = np.repeat(x, k)
    steps = np.diff(held)
    ramp = np.tile(np.arange(k) / k, x.shape[0])
    return held + ramp * np.append(steps, 0.0)


def finite_difference_derivative(y, h):
    """First derivative by central differences inside, one-sided at the ends."""
    d = np.empty_like(y)
    d[1:-1] = (y[2:] - y[:-2]) / (2.0 * h)
    d[0] = (y[1] - y[0]) / h
    d[-1] = (y[-1] - y[-2]) / h
    return d


# --- early exits -----------------------------------------------------------------------------

def first_crossing(x, level):
    """Index of the first sample above `level`, or -1."""
    for i in range(len(x)):
        if x[i] > level:
            return i
    return -1


def sum_until_negative(x):
    """Sum of the samples before the first negative one, and how many were summed."""
    total = 0.0
    count = 0
    for v in x:
        if v < 0:
            break
        total += v
        count += 1
    return total, count


# --- more of what scientific code reaches for ----------------------------------------------------

def median_filter(x, k):
    """Running median over windows of k samples (k odd); the ends are left as they are."""
    out = x.copy()
    half = k // 2
    for i in range(half, len(x) - half):
        out[i] = np.median(x[i - half:i + half + 1])
    return out


def smooth_convolve(x, k):
    """Moving average of width k by convolution with a box kernel, same length as x."""
    box = np.ones(k) / k
    return np.convolve(x, box, mode="same")


def interp_resample(t, y, n):
    """Resample the samples y(t) at n evenly spaced times by linear interpolation."""
    t_new = np.linspace(t[0], t[-1], n)
    return t_new, np.interp(t_new, t, y)


def polyfit_normal(x, y, deg):
    """Least-squares polynomial coefficients (lowest power first) by the normal
    equations, and the root-mean-square residual."""
    A = np.column_stack([x ** p for p in range(deg + 1)])
    coef = np.linalg.solve(A.T @ A, A.T @ y)
    resid = y - A @ coef
    return coef, np.sqrt(np.mean(resid ** 2))


def gauss_seidel(A, b, tol, max_sweeps):
    """Gauss-Seidel sweeps for A x = b until successive iterates are np.allclose."""
    n = b.shape[0]
    x = np.zeros_like(b)
    for sweep in range(max_sweeps):
        x_old = x.copy()
        for i in range(n):
            s = A[i] @ x - A[i, i] * x[i]
            x[i] = (b[i] - s) / A[i, i]
        if np.allclose(x, x_old, rtol=0.0, atol=tol):
            return x, sweep + 1
    return x, max_sweeps


def positive_part(x):
    """Mean of the positive samples (boolean-mask indexing); negatives zeroed in place."""
    pos = x[x > 0]
    mean_pos = pos.mean() if pos.size > 0 else 0.0
    x[x < 0] = 0.0
    return mean_pos, pos.size


def count_above(x, t):
    """How many samples exceed t and their sum, by boolean-mask indexing."""
    above = x[x > t]
    return above.size, above.sum()

def bincount_histogram(x, nbins):
    """Histogram of samples in [0, 1) by np.bincount of their bin indices."""
    idx = np.floor(x * nbins).astype(np.int64)
    idx = np.clip(idx, 0, nbins - 1)
    return np.bincount(idx, minlength=nbins)


def quartiles_sorted(x):
    """Lower quartile, median and upper quartile by sorting (nearest rank)."""
    s = np.sort(x)
    n = len(s)
    return s[n // 4], s[n // 2], s[(3 * n) // 4]


def kmeans(X, centroids, iters):
    """Lloyd's k-means: assign rows to the nearest centroid, move centroids to the means."""
    C = centroids.copy()
    labels = np.zeros(X.shape[0], dtype=np.int64)
    for _ in range(iters):
        d = ((X[:, np.newaxis, :] - C[np.newaxis, :, :]) ** 2).sum(axis=2)
        labels = np.argmin(d, axis=1)
        for k in range(C.shape[0]):
            members = X[labels == k]
            if len(members) > 0:
                C[k] = members.mean(axis=0)
    return C, labels


def row_normalize_einsum(X):
    """Rows of X scaled to unit length, squared norms by np.einsum."""
    sq = np.einsum("ij,ij->i", X, X)
    return X / np.sqrt(sq)[:, np.newaxis]


def find_peaks_list(x):
    """Indices of strict local maxima, collected in a Python list."""
    peaks = []
    for i in range(1, len(x) - 1):
        if x[i] > x[i - 1] and x[i] > x[i + 1]:
            peaks.append(i)
    return np.array(peaks, dtype=np.int64)


def projectile_drag(state, dt, drag):
    """Flight of a projectile with linear drag until it lands: range and flight time."""
    x, y, vx, vy = state
    t = 0.0
    while y >= 0.0:
        vx = vx - dt * drag * vx
        vy = vy - dt * (9.81 + drag * vy)
        x = x + dt * vx
        y = y + dt * vy
        t += dt
    return x, t


def pendulum_math(theta0, dt, steps):
    """Nonlinear pendulum from each start angle (math.sin on scalars), symplectic Euler."""
    out = np.empty_like(theta0)
    for i in range(len(theta0)):
        th = theta0[i]
        w = 0.0
        for _ in range(steps):
            w -= dt * math.sin(th)
            th += dt * w
        out[i] = th
    return out


def knn_indices(points, k):
    """Each point's k nearest other points: squared distances with the diagonal masked by
    np.fill_diagonal, sorted with argsort, the distances gathered by take_along_axis."""
    diff = points[:, None, :] - points[None, :, :]
    d = (diff ** 2).sum(axis=-1)
    np.fill_diagonal(d, np.inf)
    order = np.argsort(d, axis=1)[:, :k]
    return order, np.sqrt(np.take_along_axis(d, order, axis=1))


def histogram_2d_add_at(x, y, bins):
    """A 2-D histogram of points in the unit square by unbuffered np.add.at (repeated cells
    count every point)."""
    counts = np.zeros((bins, bins), dtype=np.int64)
    i = np.minimum((x * bins).astype(np.int64), bins - 1)
    j = np.minimum((y * bins).astype(np.int64), bins - 1)
    np.add.at(counts, (i, j), 1)
    return counts


def one_hot_accuracy(scores, labels):
    """One-hot targets by two index arrays (oh[rows, labels] = 1) against the argmax
    predictions: the accuracy and the per-class confusion diagonal."""
    n, classes = scores.shape
    target = np.zeros((n, classes))
    target[np.arange(n), labels] = 1.0
    predicted = np.zeros((n, classes))
    predicted[np.arange(n), np.argmax(scores, axis=1)] = 1.0
    hits = (target * predicted).sum(axis=0)
    return hits.sum() / n, hits


# --- complex arithmetic (fractals) ------------------------------------------------------------

def mandelbrot_escape(re, im, max_iter):
    """Mandelbrot escape counts on the grid of re and im (complex arrays)."""
    c = re[np.newaxis, :] + 1j * im[:, np.newaxis]
    z = np.zeros_like(c)
    counts = np.zeros(c.shape, dtype=np.int64)
    for _ in range(max_iter):
        inside = np.abs(z) <= 2.0
        z = np.where(inside, z * z + c, z)
        counts += inside
    return counts


def julia_escape(re, im, c_re, c_im, max_iter):
    """Julia-set escape counts of z -> z*z + c on the grid of re and im."""
    z = re[np.newaxis, :] + 1j * im[:, np.newaxis]
    c = c_re + 1j * c_im
    counts = np.zeros(z.shape, dtype=np.int64)
    for _ in range(max_iter):
        inside = np.abs(z) <= 2.0
        z = np.where(inside, z * z + c, z)
        counts += inside
    return counts


def mandelbrot_loops(xs, ys, max_iter):
    """Mandelbrot escape counts point by point with a complex scalar and an early break."""
    counts = np.zeros((len(ys), len(xs)), dtype=np.int64)
    for i in range(len(ys)):
        for j in range(len(xs)):
            c = xs[j] + 1j * ys[i]
            z = 0j
            n = 0
            while n < max_iter:
                z = z * z + c
                if abs(z) > 2.0:
                    break
                n += 1
            counts[i, j] = n
    return counts


def newton_fractal(re, im, iters):
    """Which cube root of 1 Newton's method on z**3 - 1 reaches from each grid point."""
    z = re[np.newaxis, :] + 1j * im[:, np.newaxis]
    for _ in range(iters):
        z = z - (z ** 3 - 1.0) / (3.0 * z ** 2)
    roots = np.array([1.0, -0.5 + 0.8660254037844386j, -0.5 - 0.8660254037844386j])
    return np.argmin(np.abs(z[:, :, np.newaxis] - roots), axis=2)
