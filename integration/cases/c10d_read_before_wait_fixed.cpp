// BUILD: c10d
// An all-gather of c10d's C++ API writes Out on the process group's NCCL
// stream; work->wait() makes the current stream wait for it before Out is
// read there.
#include "../c10d_harness.h"
#include "../harness.h"

at::Tensor gatherThenRead(c10d::ProcessGroupNCCL &PG, float V) {
  at::Tensor In = at::full({it::kN}, V, it::opts());
  at::Tensor Out = at::zeros({it::kN}, it::opts());
  at::cuda::CUDAStream Slow = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent Ready;
  Ready.record(at::cuda::getCurrentCUDAStream());
  Ready.block(Slow);
  c10::intrusive_ptr<c10d::Work> Work;
  {
    at::cuda::CUDAStreamGuard Guard(Slow);
    at::cuda::sleep(it::spin()); // Slow is busy with earlier work
    Work = PG._allgather_base(Out, In);
  }
  Work->wait(); // the current stream waits for the all-gather
  return Out.clone();
}

int main(int argc, char **argv) {
  auto PG = it::singleRankGroup();
  return it::run("c10d_read_before_wait", "fixed", argc, argv, [&](float V) {
    return it::differs(gatherThenRead(*PG, V), V);
  });
}
