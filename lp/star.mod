/* star.mod: divisible-load scheduling on a star network, the linear program of
   Drozdowski and Wolniewicz, "Out-of-core divisible load processing" (IEEE TPDS 2003),
   in the cumulative form dlsched solves.

   An originator sends processor k its load alpha[k] in turn, one send at a time; the send
   takes S[k] + C[k] alpha[k] seconds, and processor k then computes for the largest of its
   time lines a[k,l] + b[k,l] alpha[k] (one per memory level). The makespan is minimised.
   The paper writes the start of each computation as a sum over all earlier sends, which
   makes the matrix dense; here T[k], the end of the k-th send, carries that sum.

   Data:   dlsched export PLATFORM --load V --format mathprog -o star.dat
   Solve:  glpsol -m star.mod -d star.dat                                              */

param m, integer, > 0;                  /* processors, numbered in send order */
param V, > 0;                           /* the load, in the platform's unit */
param U, > 0, default 1;                /* the unit the loads are solved in: a power of two
                                           near V / m keeps the coefficients of large loads
                                           within GLPK's tolerances (alpha = U x) */
param TU, > 0, default 1;               /* the unit the times are solved in (s): a power of
                                           two near a typical time, for makespans far from
                                           seconds */
param name{1..m}, symbolic;             /* processor names */
param S{1..m}, >= 0;                    /* send startup (s) */
param C{1..m}, >= 0;                    /* send rate (s per unit) */
set LIMITED, within 1..m;               /* processors with a limit */
param B{LIMITED}, >= 0;                 /* largest load they can take */
set L{1..m};                            /* the time lines of each processor */
param a{k in 1..m, l in L[k]};          /* intercept (s) */
param b{k in 1..m, l in L[k]}, >= 0;    /* slope (s per unit) */

var x{1..m}, >= 0;                      /* load of processor k, in units of U */
var T{1..m}, >= 0;                      /* end of the k-th send, in units of TU */
var Cmax, >= 0;                         /* makespan, in units of TU */

minimize makespan: Cmax;

s.t. send{k in 1..m}:
    T[k] = (if k > 1 then T[k - 1] else 0) + S[k] / TU + (C[k] * U / TU) * x[k];

s.t. finish{k in 1..m, l in L[k]}:
    T[k] + a[k, l] / TU + (b[k, l] * U / TU) * x[k] <= Cmax;

s.t. load: sum{k in 1..m} x[k] = V / U;

s.t. limit{k in LIMITED}: x[k] <= B[k] / U;

solve;

printf "makespan %.17g\n", TU * Cmax;
printf{k in 1..m} "load %s %.17g\n", name[k], U * x[k];

end;
