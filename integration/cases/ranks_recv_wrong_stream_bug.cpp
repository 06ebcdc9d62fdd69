// BUILD: c10d
// Rank 1 receives Buf from rank 0, which comes late. work->wait() makes
// rank 1's current stream wait for the receive, but Buf is then read on a
// pool stream that waits for nothing.
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
  Work->wait(); // the current stream waits; Side does not
  at::cuda::CUDAStream Side = at::cuda::getStreamFromPool();
  at::Tensor Got;
  {
    at::cuda::CUDAStreamGuard Guard(Side);
    Got = Buf.clone(); // EXPECT: streamsafe-unsynchronized-access
  }
  return it::differs(Got, V);
}

int main(int argc, char **argv) {
  return it::runOnTwoRanks("ranks_recv_wrong_stream", "bug", argc, argv, receiveThenReadOnSide);
}
