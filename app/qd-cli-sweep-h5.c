/* qd-cli-sweep-h5.c: ensemble traces as HDF5 (built with -Dhdf5=enabled)
 *
 * The layout h5py and MATLAB's h5read take in one call each:
 *
 *   /time                 the grid, n_grid doubles
 *   /run                  the run numbers, n_runs integers
 *   /parameters/NAME      each varied variable, n_runs doubles
 *   /traces/SCOPE/SIGNAL  n_runs x n_grid doubles (row r: run /run[r])
 *
 * Runs that failed have no traces and are left out. NaN marks grid
 * points a run did not reach.
 */
#include <glib/gstdio.h>
#include <hdf5.h>
#include <string.h>

#include "qd-cli-sweep-private.h"

/* A dataset of @rank dimensions filled from @data. */
static gboolean
write_dataset (hid_t          file,
               hid_t          lcpl,
               const char    *name,
               hid_t          type,
               int            rank,
               const hsize_t *dims,
               const void    *data)
{
  hid_t space = H5Screate_simple (rank, dims, NULL);
  hid_t dcpl = H5Pcreate (H5P_DATASET_CREATE);
  hid_t set;
  herr_t status = -1;

  /* No creation times: the same sweep gives the same file. */
  H5Pset_obj_track_times (dcpl, 0);
  set = H5Dcreate2 (file, name, type, space, lcpl, dcpl, H5P_DEFAULT);
  if (set >= 0)
    {
      status = H5Dwrite (set, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
      H5Dclose (set);
    }
  H5Pclose (dcpl);
  H5Sclose (space);
  return status >= 0;
}

gboolean
qd_cli_sweep_write_traces_h5 (QdSweep     *sweep,
                              GPtrArray   *results,
                              double       t0,
                              double       step,
                              const char  *path,
                              GError     **error)
{
  g_autoptr(GPtrArray) good = g_ptr_array_new ();
  const QdSweepResult *shape = NULL;
  g_autofree double *time = NULL;
  g_autofree guint64 *runs = NULL;
  g_autofree double *column = NULL;
  g_autofree double *block = NULL;
  gboolean ok = TRUE;
  guint n_grid = 0;
  hid_t file, lcpl;

  for (guint r = 0; r < results->len; r++)
    {
      const QdSweepResult *result = g_ptr_array_index (results, r);

      if (result->trace_names->len == 0)
        continue;
      if (shape == NULL)
        shape = result;
      if (result->trace_names->len == shape->trace_names->len && result->n_grid == shape->n_grid)
        g_ptr_array_add (good, (gpointer) result);
    }
  n_grid = shape != NULL ? shape->n_grid : 0;

  H5Eset_auto2 (H5E_DEFAULT, NULL, NULL);
  file = H5Fcreate (path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (file < 0)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_IO,
                   _("%s: cannot create the HDF5 file; check that the folder exists and is writable"),
                   path);
      return FALSE;
    }
  lcpl = H5Pcreate (H5P_LINK_CREATE);
  H5Pset_create_intermediate_group (lcpl, 1);

  time = g_new (double, MAX (n_grid, 1));
  for (guint p = 0; p < n_grid; p++)
    time[p] = t0 + p * step;
  runs = g_new (guint64, MAX (good->len, 1));
  column = g_new (double, MAX (good->len, 1));
  for (guint r = 0; r < good->len; r++)
    runs[r] = ((const QdSweepResult *) g_ptr_array_index (good, r))->run;
  {
    hsize_t dims[1] = { n_grid };
    hsize_t rdims[1] = { good->len };

    ok = write_dataset (file, lcpl, "/time", H5T_NATIVE_DOUBLE, 1, dims, time)
         && write_dataset (file, lcpl, "/run", H5T_NATIVE_UINT64, 1, rdims, runs);
    for (guint i = 0; ok && i < qd_sweep_get_n_names (sweep); i++)
      {
        g_autofree char *name = g_strdup_printf ("/parameters/%s", qd_sweep_get_name (sweep, i));

        for (guint r = 0; r < good->len; r++)
          column[r] = ((const QdSweepResult *) g_ptr_array_index (good, r))->values[i];
        ok = write_dataset (file, lcpl, name, H5T_NATIVE_DOUBLE, 1, rdims, column);
      }
  }
  block = g_new (double, MAX ((gsize) good->len * n_grid, 1));
  for (guint k = 0; ok && shape != NULL && k < shape->trace_names->len; k++)
    {
      const char *signal = g_ptr_array_index (shape->trace_names, k);
      g_autofree char *name = g_strconcat ("/traces", signal[0] == '/' ? "" : "/", signal, NULL);
      hsize_t dims[2] = { good->len, n_grid };

      for (guint r = 0; r < good->len; r++)
        {
          const QdSweepResult *result = g_ptr_array_index (good, r);

          memcpy (block + (gsize) r * n_grid, result->traces + (gsize) k * n_grid,
                  sizeof (double) * n_grid);
        }
      ok = write_dataset (file, lcpl, name, H5T_NATIVE_DOUBLE, 2, dims, block);
    }
  H5Pclose (lcpl);
  if (H5Fclose (file) < 0)
    ok = FALSE;
  if (!ok)
    {
      g_unlink (path);
      g_set_error (error, QD_ERROR, QD_ERROR_IO,
                   _("%s: cannot write the HDF5 file (disk full, or a signal name HDF5 refuses); it was removed"),
                   path);
    }
  return ok;
}
