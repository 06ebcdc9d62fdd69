// Calls the CUDA runtime refuses only when both the capture's mode and the
// calling thread's mode are strict, each in a global capture of its own:
// a query of a stream outside the capture, a query and a host wait of an
// event recorded outside it, and cudaMalloc after the thread has exchanged
// its mode to relaxed and back. Each returns an error.
#include "../graph_harness.h"

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
  int Refused = 0;

  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(Y.data_ptr<float>(), 0, Bytes, S);
  it::note(What, Refused, "cudaStreamQuery (other stream)",
       cudaStreamQuery(Other)); // EXPECT: streamsafe-graph-capture
  it::endCapture(S);

  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(Y.data_ptr<float>(), 0, Bytes, S);
  it::note(What, Refused, "cudaEventQuery (outside event)",
       cudaEventQuery(Ev)); // EXPECT: streamsafe-graph-capture
  it::endCapture(S);

  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(Y.data_ptr<float>(), 0, Bytes, S);
  it::note(What, Refused, "cudaEventSynchronize (outside event)",
       cudaEventSynchronize(Ev)); // EXPECT: streamsafe-graph-capture
  it::endCapture(S);

  // Relaxed for one call, then the global mode is back.
  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(Y.data_ptr<float>(), 0, Bytes, S);
  cudaStreamCaptureMode Mode = cudaStreamCaptureModeRelaxed;
  cudaThreadExchangeStreamCaptureMode(&Mode);
  cudaThreadExchangeStreamCaptureMode(&Mode);
  it::note(What, Refused, "cudaMalloc (thread mode restored)",
       cudaMalloc(&P, 1 << 20)); // EXPECT: streamsafe-graph-capture
  it::endCapture(S);

  cudaFree(P);
  cudaEventDestroy(Ev);
  return {Refused == 4, What, true};
}

int main(int argc, char **argv) {
  at::Tensor Y = at::zeros({it::kN}, it::opts());
  return it::runGraph(
      "graph_capture_modes", "bug", argc, argv,
      [&](float V, at::cuda::CUDAStream Cap) { return probe(V, Cap, Y); });
}
