// BUILD: c10d
// Rank 0 sends Buf to rank 1 and refills it on its current stream before
// work->wait(). Rank 1 comes late, so the send on rank 0's NCCL stream has
// not read Buf yet: rank 1 receives the new contents.
#include "../two_ranks.h"

bool sendThenOverwrite(c10d::ProcessGroupNCCL &PG, int Rank, float V) {
  at::Tensor Buf = at::full({it::kRankN}, Rank == 0 ? V : 0.0f, it::opts());
  std::vector<at::Tensor> Bufs{Buf};
  if (Rank == 0) {
    c10::intrusive_ptr<c10d::Work> Work = PG.send(Bufs, 1, 0);
    Buf.fill_(-V); // EXPECT: streamsafe-unsynchronized-access
    Work->wait();
    return false;
  }
  at::cuda::sleep(it::spin()); // the receiver comes late
  PG.recv(Bufs, 0, 0)->wait();
  return it::differs(Buf, V);
}

int main(int argc, char **argv) {
  return it::runOnTwoRanks("ranks_send_overwritten", "bug", argc, argv, sendThenOverwrite);
}
