#include "../fw.h"

// Launch runs tasks on the worker's stream: reported.
void a_pipeline(fw::Worker &Producer, fw::Worker &Consumer) {
  at::Tensor B, C;
  Producer.Launch([&] { B = at::randn({8}, at::kCUDA); });
  Consumer.Launch([&] { C = B.relu(); });
}

// fw::Event is an event class: reported.
void a_wait_unrecorded() {
  fw::Event E;
  E.Wait(at::cuda::getCurrentCUDAStream());
}

// fw::Scope is no guard here: silent.
void a_scoped(const at::Tensor &X) {
  auto S = at::cuda::getStreamFromPool();
  at::Tensor T = X * 2;
  fw::Scope Guard(S);
  at::Tensor Y = T.exp();
}

// Within the default budget: analysed, reported.
void a_loops(at::Tensor L, int N) {
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
