/**
 * 'Generar reporte': the client's CSV reports (the authorizers' list, and the client administrator's «Mi
 * empresa»). Its dialog, with the date pickers, loads the first time it opens.
 */
import { Button } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconFileSpreadsheet } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';

const ReportDialog = lazy(() => import('./report-dialog').then((m) => ({ default: m.ReportDialog })));

export function ReportButton() {
  const [opened, report] = useDisclosure(false);
  const [loaded, setLoaded] = useState(false);
  return (
    <>
      <Button
        leftSection={<IconFileSpreadsheet size={18} aria-hidden />}
        onClick={() => {
          setLoaded(true);
          report.open();
        }}
      >
        Generar reporte
      </Button>
      {loaded ? (
        <Suspense fallback={null}>
          <ReportDialog opened={opened} onClose={report.close} />
        </Suspense>
      ) : null}
    </>
  );
}
