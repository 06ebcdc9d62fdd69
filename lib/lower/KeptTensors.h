//===--- KeptTensors.h - When a stored tensor is kept for the users -*- C++
//-*-===//
//
// A method that stores a tensor in its own object (`self.buf = t`, `buf_ =
// t`) hands it to the object's other methods and users, which use it on
// their current stream. The engine judges the tensor (Diagnoser::handBack:
// allocated on a held side stream and not recorded on the current one);
// this rule says when the class gives the evidence that the store hands it
// on for good, for both front ends:
//  * no method of the class records any tensor on a stream;
//  * a method uses the field where no other stream is made current;
//  * no method returns the field (the return hands it on, and is where the
//    hand-back is reported);
//  * the storing method does not make a stream or the host wait before the
//    store (a stream that waits for the current stream before it allocates
//    reuses blocks only after their users' earlier work);
//  * the next statements of the store's block do not replace the field.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_LOWER_KEPTTENSORS_H
#define STREAMSAFE_LIB_LOWER_KEPTTENSORS_H

namespace streamsafe::lower {

/// What a front end reads of one store into a field of the method's object.
struct KeptEvidence {
  bool ClassRecords = false;
  bool UsedOutsideSections = false;
  bool ReturnedByAMethod = false;
  bool WaitBeforeStore = false;
  bool ReplacedAfter = false;
};

/// Whether the store hands the tensor to the object's users for good.
bool keptForUsers(const KeptEvidence &E);

} // namespace streamsafe::lower

#endif // STREAMSAFE_LIB_LOWER_KEPTTENSORS_H
