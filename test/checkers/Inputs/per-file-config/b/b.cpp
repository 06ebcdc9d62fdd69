#include "../fw.h"

// Launch is nothing special here: silent.
void b_pipeline(fw::Worker &Producer, fw::Worker &Consumer) {
  at::Tensor B, C;
  Producer.Launch([&] { B = at::randn({8}, at::kCUDA); });
  Consumer.Launch([&] { C = B.relu(); });
}

// No event check here, and fw::Event is no event class: silent.
void b_wait_unrecorded() {
  fw::Event E;
  E.Wait(at::cuda::getCurrentCUDAStream());
}

// fw::Scope is a guard here: reported by both checks.
void b_scoped(const at::Tensor &X) {
  auto S = at::cuda::getStreamFromPool();
  at::Tensor T = X * 2;
  fw::Scope Guard(S);
  at::Tensor Y = T.exp();
}

// Over the budget of one visit per block: skipped, said on stderr.
void b_loops(at::Tensor L, int N) {
  auto S1 = at::cuda::getStreamFromPool();
  auto S2 = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent Ev;
  for (int I = 0; I < N; ++I) {
    for (int J = 0; J < N; ++J) {
      for (int K = 0; K < N; ++K) {
        if (K % 3 == 0) {
          at::cuda::CUDAStreamGuard G(S1);
          L.add_(1);
          Ev.record(S1);
        } else if (K % 3 == 1) {
          at::cuda::CUDAStreamGuard G(S2);
          Ev.block(S2);
          L.mul_(2);
        } else {
          while (L.dim() > K)
            L.sub_(1);
        }
      }
      if (J % 2)
        continue;
      L.div_(2);
    }
    if (I > N / 2)
      break;
  }
}
