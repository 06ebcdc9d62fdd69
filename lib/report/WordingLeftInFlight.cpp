//===--- WordingLeftInFlight.cpp - Writes left for the caller, in words ---===//
//
// A write the function leaves in flight in a tensor its caller holds, on a
// stream the caller cannot wait for (lib/engine/DiagnoseLeftInFlight.cpp):
// reported at the write, with the return and why the stream differs.
//
//===----------------------------------------------------------------------===//

#include "lib/report/Writer.h"

namespace streamsafe::report {

void Writer::wordLeftForCaller(const finding::UnsynchronizedAccess &X) {
  std::string Tensor = name(X.Tensor), Stream = stream(X.Prior.Stream);
  warn(X.Prior.Site,
       sub("tensor '%0' is %1 on %2, which may still run when '%3' returns; "
           "nothing makes the caller's current stream wait for it",
           {Tensor, verb(X.Prior.Mode), Stream, IR.Name}));
  noteStreamSetAt(X.Prior, "is");
  note(X.Access.Site,
       sub("'%0' returns here; '%1' outlives the call, and its next use on "
           "the caller's current stream may run before the write",
           {IR.Name, Tensor}));
  noteProven(X.Prior.Stream);
  StreamDesc D = X.Prior.Stream;
  if (D.Named != NoVar && IR.var(D.Named).NeverJoined && D.ProvenAt != NoSite)
    note(D.ProvenAt, sub("no code of the file makes another stream or the "
                         "host wait for '%0' (a wait_stream, a synchronize, an "
                         "event waited): its users cannot wait for its work",
                         {IR.var(D.Named).Name}));
}

} // namespace streamsafe::report
