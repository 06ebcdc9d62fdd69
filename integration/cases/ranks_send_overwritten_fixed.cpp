// BUILD: c10d
// The fix: work->wait() before Buf is refilled, so the send has read it.
#include "../two_ranks.h"

bool sendThenOverwrite(c10d::ProcessGroupNCCL &PG, int Rank, float V) {
  at::Tensor Buf = at::full({it::kRankN}, Rank == 0 ? V : 0.0f, it::opts());
  std::vector<at::Tensor> Bufs{Buf};
  if (Rank == 0) {
    c10::intrusive_ptr<c10d::Work> Work = PG.send(Bufs, 1, 0);
    Work->wait();
    Buf.fill_(-V);
    return false;
  }
  at::cuda::sleep(it::spin()); // the receiver comes late
  PG.recv(Bufs, 0, 0)->wait();
  return it::differs(Buf, V);
}

int main(int argc, char **argv) {
  return it::runOnTwoRanks("ranks_send_overwritten", "fixed", argc, argv, sendThenOverwrite);
}
