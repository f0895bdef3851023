/* saxpy and a dot product offloaded with OpenMP; the README's example. */
#include <stdio.h>
#include <stdlib.h>

static void saxpy(int n, float a, const float *x, float *y)
{
    #pragma omp target teams distribute parallel for map(to: x[0:n]) map(tofrom: y[0:n])
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}

static double dot(int n, const float *x, const float *y)
{
    double sum = 0.0;
    #pragma omp target teams distribute parallel for map(to: x[0:n], y[0:n]) reduction(+: sum)
    for (int i = 0; i < n; i++)
        sum += (double)x[i] * y[i];
    return sum;
}

int main(void)
{
    int n = 10000;
    float *x = malloc(n * sizeof *x);
    float *y = malloc(n * sizeof *y);
    for (int i = 0; i < n; i++) {
        x[i] = (float)(i % 10);
        y[i] = 1.0f;
    }
    saxpy(n, 2.0f, x, y);
    double d = dot(n, x, y);
    printf("y[7] = %.1f, dot = %.1f\n", y[7], d);
    free(x);
    free(y);
    return 0;
}
