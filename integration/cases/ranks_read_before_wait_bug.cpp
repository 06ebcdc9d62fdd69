// BUILD: c10d
// Two ranks all-reduce Buf with c10d's C++ API. Rank 1 comes late (its
// current stream is busy), so the all-reduce on rank 0's NCCL stream waits
// for it; rank 0 reads Buf on its current stream before work->wait().
#include "../two_ranks.h"

at::Tensor reduceThenRead(c10d::ProcessGroupNCCL &PG, int Rank, float V) {
  at::Tensor Buf = at::full({it::kRankN}, V, it::opts());
  if (Rank == 1)
    at::cuda::sleep(it::spin()); // the peer comes late
  std::vector<at::Tensor> Bufs{Buf};
  c10::intrusive_ptr<c10d::Work> Work = PG.allreduce(Bufs);
  at::Tensor Got = Buf.clone(); // EXPECT: streamsafe-unsynchronized-access
  Work->wait();
  return Got;
}

int main(int argc, char **argv) {
  return it::runOnTwoRanks("ranks_read_before_wait", "bug", argc, argv,
                           [](c10d::ProcessGroupNCCL &PG, int Rank, float V) {
                             return it::differs(reduceThenRead(PG, Rank, V), 2 * V);
                           });
}
