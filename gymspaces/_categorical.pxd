from numpy cimport npy_intp

cdef enum ChoiceCheck:
    CHOICE_OK = 0
    CHOICE_NAN = 1
    CHOICE_NEGATIVE = 2
    CHOICE_NOT_NORMALISED = 3

cdef double pairwise_sum(const double *a, npy_intp n) noexcept nogil
cdef bint isclose_to_one(double value) noexcept nogil
cdef ChoiceCheck check_choice_probabilities(const double *p, npy_intp n, double atol) noexcept nogil
cdef double choice_tolerance(object p) except -1.0
cdef double CHOICE_ATOL
cdef ChoiceCheck check_unit_probabilities(const double *p, npy_intp n, double atol,
                                          double pairwise_total) noexcept nogil
cdef void normalised_cdf(const double *p, npy_intp n, double *cdf) noexcept nogil
cdef void cumulative_sum(const double *p, npy_intp n, double *cdf) noexcept nogil
cdef npy_intp search_right_normalised(const double *cdf, npy_intp n, double u) noexcept nogil
cdef npy_intp search_right(const double *cdf, npy_intp n, double u) noexcept nogil
cdef object choice_error(ChoiceCheck code)
