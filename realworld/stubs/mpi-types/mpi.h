// The two MPI handle types TransformerEngine's userbuffers.h declares
// members of (MPI_Comm, MPI_Request), as opaque handles; this machine has no
// MPI. Nothing the analysis reads calls MPI (docs/realworld.md).
#pragma once
typedef struct streamsafe_mpi_comm *MPI_Comm;
typedef struct streamsafe_mpi_request *MPI_Request;
