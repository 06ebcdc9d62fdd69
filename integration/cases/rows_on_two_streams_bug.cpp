// Two side streams fill rows of one output. The first fills rows 0-1
// (narrow(0, 0, 2)), which overlaps the second's row 1: the second stream
// runs first (the first is busy), and the first then overwrites its row.
#include "../harness.h"

at::Tensor fillRows(float V) {
  at::cuda::CUDAStream Cur = at::cuda::getCurrentCUDAStream();
  at::cuda::CUDAStream S1 = at::cuda::getStreamFromPool();
  at::cuda::CUDAStream S2 = at::cuda::getStreamFromPool();
  at::Tensor Out = at::empty({2, it::kN / 2}, it::opts());
  at::cuda::CUDAEvent Ready;
  Ready.record(Cur);
  Ready.block(S1);
  Ready.block(S2);
  {
    at::cuda::CUDAStreamGuard Guard(S1);
    at::cuda::sleep(it::spin()); // the first stream is busy with earlier work
    Out.narrow(0, 0, 2).fill_(V);
  }
  {
    at::cuda::CUDAStreamGuard Guard(S2);
    Out.select(0, 1).fill_(V + 1); // EXPECT: streamsafe-unsynchronized-access
  }
  at::cuda::CUDAEvent Done1, Done2;
  Done1.record(S1);
  Done2.record(S2);
  Done1.block(Cur);
  Done2.block(Cur);
  return Out;
}

int main(int argc, char **argv) {
  return it::run("rows_on_two_streams", "bug", argc, argv, [](float V) {
    at::Tensor Out = fillRows(V);
    return it::differs(Out.select(0, 0), V) || it::differs(Out.select(0, 1), V + 1);
  });
}
