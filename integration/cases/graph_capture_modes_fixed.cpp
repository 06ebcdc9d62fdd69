// The same calls in the same global captures, each made while the thread's
// mode is relaxed (c10::cuda::CUDAStreamCaptureModeGuard, or the runtime's
// exchange before the call): the runtime allows them, every capture makes a
// graph, and it replays.
#include "../graph_harness.h"

#include <c10/cuda/CUDAGraphsC10Utils.h>

it::Outcome probe(float, at::cuda::CUDAStream Cap, at::Tensor Y) {
  it::sync(); // Y is ready
  cudaStream_t S = Cap.stream();
  cudaStream_t Other = at::cuda::getStreamFromPool().stream();
  size_t Bytes = Y.numel() * sizeof(float);
  cudaEvent_t Ev = nullptr;
  cudaEventCreateWithFlags(&Ev, cudaEventDisableTiming);
  cudaEventRecord(Ev, Other);
  void *P = nullptr;
  std::string What;
  int Failed = 0;

  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(Y.data_ptr<float>(), 0, Bytes, S);
  {
    c10::cuda::CUDAStreamCaptureModeGuard Relaxed{cudaStreamCaptureModeRelaxed};
    cudaError_t E = cudaStreamQuery(Other);
    it::note(What, Failed, "cudaStreamQuery (other stream)",
         E == cudaErrorNotReady ? cudaSuccess : E);
  }
  it::endAndReplay(What, Failed, S);

  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(Y.data_ptr<float>(), 0, Bytes, S);
  {
    c10::cuda::CUDAStreamCaptureModeGuard Relaxed{cudaStreamCaptureModeRelaxed};
    cudaError_t E = cudaEventQuery(Ev);
    it::note(What, Failed, "cudaEventQuery (outside event)",
         E == cudaErrorNotReady ? cudaSuccess : E);
    it::note(What, Failed, "cudaEventSynchronize (outside event)",
         cudaEventSynchronize(Ev));
  }
  it::endAndReplay(What, Failed, S);

  // Relaxed for the call, then the global mode is back.
  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(Y.data_ptr<float>(), 0, Bytes, S);
  cudaStreamCaptureMode Mode = cudaStreamCaptureModeRelaxed;
  cudaThreadExchangeStreamCaptureMode(&Mode);
  it::note(What, Failed, "cudaMalloc (thread mode relaxed)",
       cudaMalloc(&P, 1 << 20));
  cudaThreadExchangeStreamCaptureMode(&Mode);
  it::endAndReplay(What, Failed, S);

  it::sync();
  cudaFree(P);
  cudaEventDestroy(Ev);
  return {Failed != 0, What, true};
}

int main(int argc, char **argv) {
  at::Tensor Y = at::zeros({it::kN}, it::opts());
  return it::runGraph(
      "graph_capture_modes", "fixed", argc, argv,
      [&](float V, at::cuda::CUDAStream Cap) { return probe(V, Cap, Y); });
}
