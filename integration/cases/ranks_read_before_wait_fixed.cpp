// BUILD: c10d
// The fix: work->wait() makes rank 0's current stream wait for the
// all-reduce before Buf is read.
#include "../two_ranks.h"

at::Tensor reduceThenRead(c10d::ProcessGroupNCCL &PG, int Rank, float V) {
  at::Tensor Buf = at::full({it::kRankN}, V, it::opts());
  if (Rank == 1)
    at::cuda::sleep(it::spin()); // the peer comes late
  std::vector<at::Tensor> Bufs{Buf};
  c10::intrusive_ptr<c10d::Work> Work = PG.allreduce(Bufs);
  Work->wait();
  return Buf.clone();
}

int main(int argc, char **argv) {
  return it::runOnTwoRanks("ranks_read_before_wait", "fixed", argc, argv,
                           [](c10d::ProcessGroupNCCL &PG, int Rank, float V) {
                             return it::differs(reduceThenRead(PG, Rank, V), 2 * V);
                           });
}
