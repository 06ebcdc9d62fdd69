// BUILD: c10d
// The fix: Side waits for the current stream (which waited for the
// receive) before it reads Buf.
#include "../two_ranks.h"

bool receiveThenReadOnSide(c10d::ProcessGroupNCCL &PG, int Rank, float V) {
  at::Tensor Buf = at::full({it::kRankN}, Rank == 0 ? V : 0.0f, it::opts());
  std::vector<at::Tensor> Bufs{Buf};
  if (Rank == 0) {
    at::cuda::sleep(it::spin()); // the sender comes late
    PG.send(Bufs, 1, 0)->wait();
    return false;
  }
  c10::intrusive_ptr<c10d::Work> Work = PG.recv(Bufs, 0, 0);
  Work->wait();
  at::cuda::CUDAStream Side = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent Received;
  Received.record(at::cuda::getCurrentCUDAStream());
  Received.block(Side);
  at::Tensor Got;
  {
    at::cuda::CUDAStreamGuard Guard(Side);
    Got = Buf.clone();
  }
  return it::differs(Got, V);
}

int main(int argc, char **argv) {
  return it::runOnTwoRanks("ranks_recv_wrong_stream", "fixed", argc, argv, receiveThenReadOnSide);
}
