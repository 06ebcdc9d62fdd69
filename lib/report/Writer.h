//===--- Writer.h - The lines of one finding, being written -----*- C++ -*-===//
//
// Private to lib/report: Wording.cpp writes the words of each kind of
// finding the engine reports, WordingCapture.cpp those of the rules of
// graph capture, WordingDefaultStream.cpp those of work on a default
// stream.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_REPORT_WRITER_H
#define STREAMSAFE_LIB_REPORT_WRITER_H

#include "lib/report/Wording.h"
#include <initializer_list>

namespace streamsafe::report {

/// Replaces %0..%9 in \p Format by \p Args.
std::string sub(const char *Format, std::initializer_list<std::string> Args);
/// An access as a participle ("read", "written") and as a noun.
const char *verb(AccessMode M);
const char *noun(AccessMode M);

/// Builds the lines of one finding: one word() per kind of finding, each
/// reading that kind's fields only.
class Writer {
public:
  Writer(const Finding &F, const Vocabulary &V) : F(F), V(V), IR(*V.IR) {}
  std::vector<Line> run();

private:
  void word(const finding::UnsynchronizedAccess &X);
  void wordLeftForCaller(const finding::UnsynchronizedAccess &X);
  void word(const finding::MissingRecordStream &X);
  void word(const finding::ThreadCurrentStream &X);
  void word(const finding::UnrestoredCurrentStream &X);
  void word(const finding::UnrecordedEventWait &X);
  void word(const finding::HostReadBeforeSync &X);
  void word(const finding::GraphCapture &X);
  void word(const finding::DefaultStreamLaunch &X); // WordingDefaultStream.cpp
  // One per rule of graph capture (WordingCapture.cpp).
  void rule(const finding::CaptureInfo &C, const finding::capture::Unjoined &X);
  void rule(const finding::CaptureInfo &C, const finding::capture::HostSync &X);
  void rule(const finding::CaptureInfo &C,
            const finding::capture::ForbiddenSync &X);
  void rule(const finding::CaptureInfo &C,
            const finding::capture::CapturedEvent &X);
  void rule(const finding::CaptureInfo &C,
            const finding::capture::Restricted &X);
  void rule(const finding::CaptureInfo &C,
            const finding::capture::ForbiddenQuery &X);
  void rule(const finding::CaptureInfo &C,
            const finding::capture::OutsideEventWait &X);
  void rule(const finding::CaptureInfo &C,
            const finding::capture::Uncaptured &X);
  void rule(const finding::CaptureInfo &C,
            const finding::capture::LegacyStream &X);
  void rule(const finding::CaptureInfo &C,
            const finding::capture::DefaultStreamCapture &X);

  void warn(SiteId At, std::string Text) {
    Lines.push_back({At, std::move(Text), false});
  }
  void note(SiteId At, std::string Text) {
    Lines.push_back({At, std::move(Text), true});
  }
  std::string stream(StreamDesc D) const { return describeStream(IR, D); }
  std::string name(VarId Var) const { return tensorName(IR, Var); }
  /// "tensor 'x'", or for a tensor no name holds, "the result of
  /// 'y.to(...)'" quoting the call at \p MadeAt ("a temporary tensor" when
  /// the front end has no text there).
  std::string tensorPhrase(VarId Var, SiteId MadeAt) const;
  /// The function called at \p At, \p Fallback when the front end knows none.
  std::string callee(SiteId At, const std::string &Fallback) const;
  /// For a finding inside a helper run in place: the note at the call.
  void noteCallSite();
  /// The branches the path of the finding takes (Finding::Path).
  void notePath();
  /// Where the stream of an access came from.
  void noteStreamSetAt(const AccessInfo &A, const char *Verb);
  void noteCaptureBegin(const finding::CaptureInfo &C);
  /// For an access a graph's replay made: where the graph captured it.
  void noteCaptured(const AccessInfo &A, const std::string &Tensor);
  /// For work on the caller's current stream, which every caller makes a
  /// side stream: the calls that carry it, and where a caller sets it.
  void noteCallersSide();
  /// Why a member or parameter stream is another stream (once per site).
  void noteProven(StreamDesc D);
  /// For a race on a stream that waited for itself: that wait.
  void noteSelfWait(const finding::UnsynchronizedAccess &X);
  void noteDefaultWait(const finding::UnsynchronizedAccess &X);
  /// Why the two streams of \p X differ, when a wait between them says so.
  void noteApart(const finding::UnsynchronizedAccess &X);
  /// "In 'm', a method of the same object, which returns with it in
  /// flight": an access another method (or an earlier call) left; false
  /// when \p A is not one.
  bool noteLeftInFlight(const AccessInfo &A);
  void noteAllocatedVia(const finding::MissingRecordStream &X);

  const Finding &F;
  const Vocabulary &V;
  const Function &IR;
  std::vector<Line> Lines;
  /// The call of the helper is already the warning's place.
  bool CallNoted = false;
  std::vector<SiteId> Proven;
};

} // namespace streamsafe::report

#endif // STREAMSAFE_LIB_REPORT_WRITER_H
