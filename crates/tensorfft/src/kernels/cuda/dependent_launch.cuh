// Programmatic dependent launch (sm_90): every kernel's entry point first lets the next kernel
// of its stream start launching, then waits for the kernels before it.
//
// A kernel launched with the programmatic-stream-serialization attribute may begin while the
// kernel before it on the stream still runs; `griddepcontrol.wait` blocks until that kernel has
// completed and its memory operations are visible, so nothing a pass reads or writes is touched
// before it. `griddepcontrol.launch_dependents` lets the next kernel's blocks be scheduled once
// every block of this grid has issued it (or exited): they take the multiprocessors this grid
// frees and wait there, so the launch latency between two passes overlaps this pass's tail.
// Without the attribute both instructions do nothing, and so they are compiled out below sm_90.
#pragma once

__device__ __forceinline__ void overlap_next_launch_then_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}
