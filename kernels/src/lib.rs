//! Real kernels built with ktc, starting with what MRMR feature selection needs: joint
//! histograms of discrete columns (CPU and CUDA variants), quantile discretisation,
//! mutual information and greedy MRMR selection.
