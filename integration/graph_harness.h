// Harness of the CUDA graph cases of the GPU integration suite
// (docs/integration.md, graph_*): a case captures a graph, replays it and
// compares with an eager run. A bug variant either makes the runtime (or
// PyTorch's CUDAGraph) refuse a call, which is caught and named, or
// captures a graph whose replay gives a wrong result.
#pragma once

#include "harness.h"

#include <ATen/cuda/CUDAGraph.h>
#include <cuda_runtime_api.h>

#include <exception>
#include <string>

namespace it {

// What one attempt did: Bad when the runtime refused a call or the replay
// was wrong; What names the error (or the wrong value).
struct Outcome {
  bool Bad = false;
  std::string What;
  bool Report = false; ///< a probe: What is reported even when not Bad
};

// The CUDA error a call returned, as the outcome of a refused call.
inline Outcome refused(cudaError_t E) {
  if (E == cudaSuccess)
    return {};
  return {true, cudaGetErrorName(E)};
}

// The CUDA error name inside a c10::Error's message (PyTorch's CUDA checks
// print "CUDA error: <description>"), or its first line.
inline std::string errorName(const std::exception &E) {
  std::string M = E.what();
  static const char *const Names[] = {
      "cudaErrorStreamCaptureUnjoined", "cudaErrorStreamCaptureInvalidated",
      "cudaErrorStreamCaptureUnsupported", "cudaErrorStreamCaptureImplicit",
      "cudaErrorCapturedEvent", "cudaErrorStreamCaptureIsolation"};
  cudaError_t Codes[] = {cudaErrorStreamCaptureUnjoined,
                         cudaErrorStreamCaptureInvalidated,
                         cudaErrorStreamCaptureUnsupported,
                         cudaErrorStreamCaptureImplicit, cudaErrorCapturedEvent,
                         cudaErrorStreamCaptureIsolation};
  // Where PyTorch raised it ("Exception raised from f at file:line").
  std::string From;
  if (size_t At = M.find("raised from "); At != std::string::npos)
    From = " (raised from " +
           M.substr(At + 12, std::min<size_t>(M.find(" at ", At) - At - 12, 60)) +
           ")";
  std::string Name;
  for (unsigned I = 0; I < sizeof(Codes) / sizeof(Codes[0]) && Name.empty();
       ++I)
    if (M.find(cudaGetErrorString(Codes[I])) != std::string::npos ||
        M.find(Names[I]) != std::string::npos)
      Name = Names[I];
  if (Name.empty())
    Name = M.substr(0, std::min<size_t>(M.find('\n'), 160));
  std::string Text = Name + From;
  for (char &C : Text)
    if (C == '"' || C == '\\' || C == '\n')
      C = '\'';
  return Text;
}

// Leaves no capture behind after a refused call: ends any capture still in
// progress on the stream and clears the error state.
inline void endCapture(cudaStream_t S) {
  cudaStreamCaptureStatus Status = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(S, &Status) == cudaSuccess &&
      Status != cudaStreamCaptureStatusNone) {
    cudaGraph_t G = nullptr;
    cudaStreamEndCapture(S, &G);
    if (G)
      cudaGraphDestroy(G);
  }
  cudaGetLastError();
}

// Notes the result of one call of a probe ("name: error", comma-separated)
// and counts it in Failed when it is an error.
inline void note(std::string &What, int &Failed, const char *Name,
                 cudaError_t E) {
  What += std::string(What.empty() ? "" : ", ") + Name + ": " +
          cudaGetErrorName(E);
  Failed += E != cudaSuccess;
  cudaGetLastError();
}

// Ends the capture on S, replays its graph once and notes both results.
inline void endAndReplay(std::string &What, int &Failed, cudaStream_t S) {
  cudaGraph_t G = nullptr;
  cudaGraphExec_t Exec = nullptr;
  note(What, Failed, "end", cudaStreamEndCapture(S, &G));
  if (!G)
    return;
  note(What, Failed, "instantiate", cudaGraphInstantiate(&Exec, G, 0));
  if (Exec) {
    note(What, Failed, "replay", cudaGraphLaunch(Exec, S));
    cudaGraphExecDestroy(Exec);
  }
  cudaGraphDestroy(G);
}

// Runs Body(V) Runs times (argv[1], else $STREAMSAFE_RUNS, else 20) with a
// fresh value V each time; counts the attempts whose Outcome is Bad, and
// reports the names of what went wrong. A c10::Error is a refused call.
template <class Body>
int runGraph(const char *Case, const char *Variant, int Argc, char **Argv,
             Body &&B) {
  int Runs = Argc > 1 ? std::atoi(Argv[1]) : envInt("STREAMSAFE_RUNS", 20);
  int Bad = 0;
  std::string Seen;
  for (int I = 0; I < Runs; ++I) {
    Outcome O;
    at::cuda::CUDAStream Capturing = at::cuda::getStreamFromPool();
    try {
      c10::cuda::CUDAStreamGuard Restore(c10::cuda::getDefaultCUDAStream());
      O = B(float(I + 1), Capturing);
      sync();
    } catch (const std::exception &E) {
      O = {true, errorName(E)};
    }
    endCapture(Capturing.stream());
    endCapture(nullptr);
    cudaDeviceSynchronize();
    cudaGetLastError();
    // What went wrong in each bad run, and what the first run says in any
    // case (the probes report every call's result).
    Bad += O.Bad ? 1 : 0;
    if ((O.Bad || (I == 0 && O.Report)) && !O.What.empty() &&
        Seen.find(O.What) == std::string::npos)
      Seen += (Seen.empty() ? "" : "; ") + O.What;
  }
  std::printf("{\"case\": \"%s\", \"variant\": \"%s\", \"runs\": %d, "
              "\"corrupted\": %d, \"detail\": \"%s\"}\n",
              Case, Variant, Runs, Bad,
              Bad == 0 && Seen.empty() ? "captured and replayed as eager"
                                       : Seen.c_str());
  return 0;
}

} // namespace it
