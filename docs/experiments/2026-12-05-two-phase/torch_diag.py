# Where torch's training step goes: exec bench/torch_baseline.py's definitions (up to its thread probe), then time the
# step at the given thread count and, with DIAG_PROFILE=1, print the profiler's top ops. Usage: torch_diag.py MODEL_DIR THREADS
import ctypes, json, os, sys, time
src = open(os.path.join(os.path.dirname(__file__), '../../../bench/torch_baseline.py')).read()
src = src[:src.index('# The stronger peer')]
model_dir, threads = sys.argv[1], int(sys.argv[2])
sys.argv = ['x', model_dir, json.dumps({'batch': 8, 'time': 128, 'repeats': 5, 'newTokens': 48, 'rows': [1], 'threads': threads})]
g = {'__name__': 'diag'}
exec(compile(src, 'torch_baseline.py', 'exec'), g)
torch = g['torch']
torch.set_num_threads(threads)
try:
    ctypes.CDLL('libblas.so.3').openblas_set_num_threads(threads)
except Exception as e:
    print('no openblas_set_num_threads', e)
step = g['train_step']
for _ in range(2): step()
ms = []
for _ in range(7):
    t = time.perf_counter(); step(); ms.append((time.perf_counter() - t) * 1000)
ms.sort()
a = torch.randn(1024, 1024); b = torch.randn(1024, 1024)
for _ in range(2): a @ b
t = time.perf_counter()
for _ in range(10): a @ b
mm = (time.perf_counter() - t) / 10
print(json.dumps({'threads': threads, 'stepMsMedian': round(ms[3], 1), 'stepMs': [round(x, 1) for x in ms], 'mm1024Gflops': round(2 * 1024**3 / mm / 1e9, 1)}))
if os.environ.get('DIAG_PROFILE'):
    from torch.profiler import profile, ProfilerActivity
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        step()
    print(prof.key_averages().table(sort_by='self_cpu_time_total', row_limit=15))
