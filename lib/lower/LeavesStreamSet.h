//===--- LeavesStreamSet.h - Who may leave a stream set -----------*- C++
//-*-===//
//
// A function that makes a stream current and does not set the caller's back
// is reported (unrestored-current-stream), unless the stream it leaves set
// is not its caller's to have back. The rule, for both front ends: each
// reads a function into a LeaveSetEvidence and asks mayLeaveStreamSet().
// The answer is Function::MayLeaveStreamSet.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_LOWER_LEAVESSTREAMSET_H
#define STREAMSAFE_LIB_LOWER_LEAVESSTREAMSET_H

namespace streamsafe::lower {

/// What a front end reads of one function.
struct LeaveSetEvidence {
  /// Python's module body: start-up code sets the stream for what runs
  /// after it.
  bool StartUp = false;
  /// A lambda: a thread body's stream is its own, and lambdas handed to
  /// threads are checked where they are spawned.
  bool Lambda = false;
  /// The unit names it as a thread's body (`std::thread(f)`,
  /// `threading.Thread(target=f)`): the stream it sets is its thread's.
  bool ThreadBody = false;
  /// It opens a section its class closes (StreamSections.h).
  bool OpensSection = false;
  /// A member of a guard class: a configured or hand-written C++ guard,
  /// whose constructor sets what its destructor restores; Python's
  /// `__enter__`/`__exit__` of a class.
  bool GuardMember = false;
  /// Configured (`StreamBindingInitializers`): it binds a stream for its
  /// thread's life.
  bool BindingInitializer = false;
  /// A forwarding setter: every stream it makes current is a parameter it
  /// was given, directly or through a forwarding setter of the unit given
  /// only its parameters (`def use(s): set_stream(s)`). Its caller chose
  /// the stream, so setting the old one back is the caller's job; callers
  /// that run it in place are judged.
  bool ForwardsParameters = false;
  /// It reads the current stream (to keep it): it means to set it back, as
  /// a hand-written guard whose destructor forgets to, and is judged even
  /// when it forwards its parameters.
  bool ReadsCurrent = false;
};

/// Whether a function with \p E may leave a stream set.
inline bool mayLeaveStreamSet(const LeaveSetEvidence &E) {
  return E.StartUp || E.Lambda || E.ThreadBody || E.OpensSection ||
         E.GuardMember || E.BindingInitializer ||
         (E.ForwardsParameters && !E.ReadsCurrent);
}

/// How deep a forwarding setter is followed through other forwarding
/// setters; deeper, it is judged as it is.
constexpr unsigned MaxForwardingDepth = 3;

} // namespace streamsafe::lower

#endif // STREAMSAFE_LIB_LOWER_LEAVESSTREAMSET_H
