"""tf.Plan(..., torch.complex32, half_arithmetic=...) and tf.bf16.fft(..., half_arithmetic=False)
on the GPU against torch.fft in complex128 (relative L2 error), default against f32 arithmetic."""
import torch
import tensorfft as tf


def rel(a, b):
    return float((a - b).norm() / b.norm())


torch.manual_seed(0)
for n in (1024, 4096):
    x = torch.randn(64, n, dtype=torch.complex64, device="cuda")
    ref = torch.fft.fft(x.to(torch.complex32).to(torch.complex128))
    for h in (None, False):
        plan = tf.Plan((n,), torch.complex32, batch=64, half_arithmetic=h)
        y = plan.forward(x.to(torch.complex32))
        print(f"complex32 {n} half_arithmetic={h}: error {rel(y.to(torch.complex128), ref):.2e}")
    pairs = torch.view_as_real(x).to(torch.bfloat16)
    refb = torch.fft.fft(torch.view_as_complex(pairs.double()))
    for h in (None, False):
        yb = tf.bf16.fft(pairs, half_arithmetic=h)
        print(f"bf16 {n} half_arithmetic={h}: error {rel(torch.view_as_complex(yb.double()), refb):.2e}")
