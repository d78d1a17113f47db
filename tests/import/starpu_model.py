"""What tests/import/starpu*.sh need to check `dlsched import starpu` and `export-model`
independently of dlsched: a reader of StarPU's model files (format 45) and of
starpu_perfmodel_display's output, the band rule of include/dlsched/import.h, and the
platform files' points. Python 3, standard library only."""
import json
import math

TYPES = {0: "cpu", 1: "cuda", 2: "opencl", 3: "mic", 4: "max_fpga", 5: "mpi_ms", 6: "tcpip_ms",
         7: "hip"}


def _values(path):
    """The file's lines that are not comments or empty, as (line number, text)."""
    with open(path) as f:
        for k, line in enumerate(f, 1):
            if line.strip() and not line.startswith("#"):
                yield k, line.rstrip("\n")


def read_model(path):
    """The sections of a well-formed model file: a list of dicts with arch ("cpu0",
    "cpu0_cuda0"), comb, impl, entries (dicts: hash, size, mean, dev, sum, sum2, n, line)
    and reg (the regression fields: nsample, minx, maxx, a, b, c)."""
    it = _values(path)
    nxt = lambda: next(it)[1].split()
    assert nxt() == ["45"], "not version 45"
    sections = []
    for comb in range(int(nxt()[0])):
        devices = []
        for _ in range(int(nxt()[0])):
            t, i, _cores = int(nxt()[0]), int(nxt()[0]), int(nxt()[0])
            devices.append("%s%d" % (TYPES[t], i))
        arch = "_".join(devices)
        for impl in range(int(nxt()[0])):
            nentries = int(nxt()[0])
            r = nxt()
            a, b, c = (float(v) for v in nxt())
            ncoeff = nxt()
            assert ncoeff == ["0"], "multiple regression: not in these tests"
            entries = []
            for _ in range(nentries):
                k, line = next(it)
                f = line.split()
                if len(f) == 7:
                    f.insert(2, "0")
                entries.append(dict(hash=f[0], size=int(f[1]), mean=float(f[3]),
                                    dev=float(f[4]), sum=float(f[5]), sum2=float(f[6]),
                                    n=int(f[7]), line=k))
            sections.append(dict(arch=arch, comb=comb, impl=impl, entries=entries,
                                 reg=dict(nsample=int(r[6]), minx=int(r[7]), maxx=int(r[8]),
                                          a=a, b=b, c=c)))
    return sections


def read_display(text):
    """starpu_perfmodel_display -s SYMBOL's output: {"cpu0_impl0": [entries]} where an
    entry is a dict of hash, size, flops, mean, dev (us) and n, from lines like
    `870a30aa\t16384          \t0.000000e+00   \t7.728182e-01   \t6.321941e-02   \t11`
    under `# performance model for cpu0_impl0 (Comb0)`."""
    out, cur = {}, None
    for line in text.splitlines():
        if line.startswith("# performance model for "):
            cur = out.setdefault(line.split()[4], [])
        elif line and not line.startswith("#") and cur is not None:
            f = line.split()
            if len(f) == 6:
                cur.append(dict(hash=f[0], size=int(f[1]), flops=float(f[2]),
                                mean=float(f[3]), dev=float(f[4]), n=int(f[5])))
    return out


def _betacf(a, b, x):
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 1000):
        m2 = 2 * m
        for aa in (m * (b - m) * x / ((qam + m2) * (a + m2)),
                   -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))):
            d = 1 + aa * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + aa / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 1e-16:
            break
    return h


def _betai(a, b, x):
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    lbt = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + \
        b * math.log1p(-x)
    if x < (a + 1) / (a + b + 2):
        return math.exp(lbt) * _betacf(a, b, x) / a
    return 1 - math.exp(lbt) * _betacf(b, a, 1 - x) / b


def t_quantile(p, df):
    """The p-quantile (p > 0.5) of Student's t with df degrees of freedom, by bisection."""
    lo, hi = 0.0, 1e4
    for _ in range(200):
        mid = (lo + hi) / 2
        cdf = 1 - 0.5 * _betai(df / 2, 0.5, df / (df + mid * mid))
        lo, hi = (mid, hi) if cdf < p else (lo, mid)
    return (lo + hi) / 2


def band(size, mean_s, dev_pop_s, n, confidence=0.95, sample_sd=True):
    """(speed, low, high) of an entry as import.h states it: speed = size / mean; with n >= 2
    the prediction interval of one more run, pi = t_{(1+c)/2, n-1} sd sqrt(1 + 1/n), sd the
    sample standard deviation (StarPU's deviation is the population one: times
    sqrt(n / (n - 1)); sample_sd=False: taken as it is), low = size / (mean + pi),
    high = size / max(mean - pi, mean / 2)."""
    speed = size / mean_s
    if n < 2:
        return speed, None, None
    sd = dev_pop_s * math.sqrt(n / (n - 1)) if sample_sd else dev_pop_s
    pi = t_quantile(0.5 + confidence / 2, n - 1) * math.sqrt(1 + 1 / n) * sd
    return speed, min(speed, size / (mean_s + pi)), max(speed, size / max(mean_s - pi, mean_s / 2))


def points(platform_path, name):
    """The points of processor `name` of a platform file: a list of (size, speed, low, high),
    low and high None without a band."""
    with open(platform_path) as f:
        d = json.load(f)
    for p in d["processors"]:
        if p["name"] == name:
            pts = p["speed"]["points"]
            return [(q[0], q[1], q[2] if len(q) > 2 else None, q[3] if len(q) > 3 else None)
                    for q in pts]
    raise AssertionError("no processor %r in %s: %s" % (name, platform_path,
                         [p["name"] for p in d["processors"]]))


def names(platform_path):
    with open(platform_path) as f:
        return [p["name"] for p in json.load(f)["processors"]]


def rel(a, b):
    return abs(a - b) / max(abs(a), abs(b), 1e-300)
