// F16 and BF16 tensors are read as float32, subnormals and infinities included.
import t from 'tap';
import { toFloat32 } from '../../../model/safetensors.js';

t.test('F16 and BF16 read', async (t) => {
  // 1, -2, 2^-24 (smallest subnormal), +Inf, 65504 (largest half)
  const half = Uint16Array.of(0x3c00, 0xc000, 0x0001, 0x7c00, 0x7bff);
  const bf = Uint16Array.of(0x3f80, 0xc000, 0x3e80, 0xff80, 0x4049); // 1, -2, 0.25, -Inf, 3.140625
  const vals16 = toFloat32({ dtype: 'F16', shape: [5], bytes: new Uint8Array(half.buffer) }, 'h');
  const valsBf = toFloat32({ dtype: 'BF16', shape: [5], bytes: new Uint8Array(bf.buffer) }, 'b');
  t.same([...vals16], [1, -2, 2 ** -24, Infinity, 65504]);
  t.same([...valsBf], [1, -2, 0.25, -Infinity, 3.140625]);
});
