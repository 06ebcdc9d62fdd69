// BUILD: c10d
// An all-gather of c10d's C++ API reads In on the process group's NCCL
// stream; it is overwritten on the current stream only after work->wait().
#include "../c10d_harness.h"
#include "../harness.h"

at::Tensor gatherThenOverwrite(c10d::ProcessGroupNCCL &PG, float V) {
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
  In.fill_(-1);
  return Out;
}

int main(int argc, char **argv) {
  auto PG = it::singleRankGroup();
  return it::run("c10d_input_overwritten", "fixed", argc, argv, [&](float V) {
    return it::differs(gatherThenOverwrite(*PG, V), V);
  });
}
